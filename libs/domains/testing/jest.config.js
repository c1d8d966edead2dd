module.exports = { ...require('../../../jest.preset.js'), displayName: 'domains-testing', rootDir: __dirname };
