module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-adapter-nest', rootDir: __dirname };
