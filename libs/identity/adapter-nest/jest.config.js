module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-nest', rootDir: __dirname };
