module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-redis', rootDir: __dirname };
