module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-web-app', rootDir: __dirname };
