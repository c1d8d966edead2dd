module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-crypto', rootDir: __dirname };
