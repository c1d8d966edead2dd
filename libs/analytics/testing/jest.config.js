module.exports = { ...require('../../../jest.preset.js'), displayName: 'analytics-testing', rootDir: __dirname };
