module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-embedded-database', rootDir: __dirname };
