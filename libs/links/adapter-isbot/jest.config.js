module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-adapter-isbot', rootDir: __dirname };
