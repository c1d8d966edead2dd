module.exports = { ...require('../../../jest.preset.js'), displayName: 'analytics-adapter-bowser', rootDir: __dirname };
