module.exports = { ...require('../../../jest.preset.js'), displayName: 'domains-adapter-nest', rootDir: __dirname };
