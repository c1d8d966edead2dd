module.exports = { ...require('../../../jest.preset.js'), displayName: 'mcp-adapter-nest', rootDir: __dirname };
