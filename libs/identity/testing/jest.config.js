module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-testing', rootDir: __dirname };
