module.exports = require('./kinds')('unit');
