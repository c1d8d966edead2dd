module.exports = { ...require('../../../jest.preset.js'), displayName: 'links-domain', rootDir: __dirname };
