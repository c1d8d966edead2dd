module.exports = { ...require('../../../jest.preset.js'), displayName: 'analytics-adapter-typeorm', rootDir: __dirname };
