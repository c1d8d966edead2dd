module.exports = { ...require('../../jest.preset.js'), displayName: 'sdk-tools', rootDir: __dirname };
