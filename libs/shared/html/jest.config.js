module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-html', rootDir: __dirname };
