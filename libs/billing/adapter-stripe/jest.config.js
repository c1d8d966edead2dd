module.exports = { ...require('../../../jest.preset.js'), displayName: 'billing-adapter-stripe', rootDir: __dirname };
