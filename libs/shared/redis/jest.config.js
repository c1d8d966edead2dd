module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-redis', rootDir: __dirname };
