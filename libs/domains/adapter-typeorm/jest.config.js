module.exports = { ...require('../../../jest.preset.js'), displayName: 'domains-adapter-typeorm', rootDir: __dirname };
