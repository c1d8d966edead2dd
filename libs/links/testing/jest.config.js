module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-testing', rootDir: __dirname };
