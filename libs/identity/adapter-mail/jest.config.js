module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-mail', rootDir: __dirname };
