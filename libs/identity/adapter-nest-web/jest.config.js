module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-nest-web', rootDir: __dirname };
