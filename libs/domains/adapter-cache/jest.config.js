module.exports = { ...require('../../../jest.preset.js'), displayName: 'domains-adapter-cache', rootDir: __dirname };
