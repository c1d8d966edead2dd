module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-testing', rootDir: __dirname };
