module.exports = { ...require('../../../jest.preset.js'), displayName: 'billing-adapter-typeorm', rootDir: __dirname };
