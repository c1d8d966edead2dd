module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-http', rootDir: __dirname };
