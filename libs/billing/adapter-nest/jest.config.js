module.exports = { ...require('../../../jest.preset.js'), displayName: 'billing-adapter-nest', rootDir: __dirname };
