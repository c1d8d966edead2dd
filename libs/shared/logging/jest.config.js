module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-logging', rootDir: __dirname };
