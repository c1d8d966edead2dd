module.exports = { ...require('../../jest.preset.js'), displayName: 'lint-tools', rootDir: __dirname };
