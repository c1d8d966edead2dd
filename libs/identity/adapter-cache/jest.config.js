module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-cache', rootDir: __dirname };
