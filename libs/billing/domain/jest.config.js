module.exports = { ...require('../../../jest.preset.js'), displayName: 'billing-domain', rootDir: __dirname };
