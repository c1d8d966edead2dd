module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-client-address', rootDir: __dirname };
