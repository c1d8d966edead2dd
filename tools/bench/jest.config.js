module.exports = { ...require('../../jest.preset.js'), displayName: 'bench-tools', rootDir: __dirname };
