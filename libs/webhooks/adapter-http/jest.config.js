module.exports = { ...require('../../../jest.preset.js'), displayName: 'webhooks-adapter-http', rootDir: __dirname };
