module.exports = { ...require('../../../jest.preset.js'), displayName: 'analytics-adapter-nest', rootDir: __dirname };
