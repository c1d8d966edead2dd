module.exports = require('./kinds')('e2e');
