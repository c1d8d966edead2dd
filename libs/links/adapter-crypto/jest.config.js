module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-adapter-crypto', rootDir: __dirname };
