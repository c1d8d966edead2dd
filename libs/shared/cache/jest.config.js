module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-cache', rootDir: __dirname };
