// The dashboard's client logic (sessions, errors, forms) runs in Jest like every other project: one `npm test`.
module.exports = { ...require('../../jest.preset.js'), displayName: 'web', rootDir: __dirname };
