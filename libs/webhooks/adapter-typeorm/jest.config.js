module.exports = { ...require('../../../jest.preset.js'), displayName: 'webhooks-adapter-typeorm', rootDir: __dirname };
