module.exports = { ...require('../../../jest.preset.js'), displayName: 'domains-domain', rootDir: __dirname };
