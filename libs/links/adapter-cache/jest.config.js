module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-adapter-cache', rootDir: __dirname };
