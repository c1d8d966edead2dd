module.exports = { ...require('../../../jest.preset.js'), displayName: 'webhooks-adapter-nest', rootDir: __dirname };
