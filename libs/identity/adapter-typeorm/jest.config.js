module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-typeorm', rootDir: __dirname };
