module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-adapter-http', rootDir: __dirname };
