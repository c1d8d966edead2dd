module.exports = { ...require('../../../jest.preset.js'), displayName: 'domains-adapter-dns', rootDir: __dirname };
