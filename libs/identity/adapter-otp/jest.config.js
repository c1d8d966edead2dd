module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-adapter-otp', rootDir: __dirname };
