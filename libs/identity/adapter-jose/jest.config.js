module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-jose', rootDir: __dirname };
