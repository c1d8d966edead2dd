module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-adapter-typeorm', rootDir: __dirname };
