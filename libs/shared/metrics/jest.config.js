module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-metrics', rootDir: __dirname };
