module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-idempotency', rootDir: __dirname };
