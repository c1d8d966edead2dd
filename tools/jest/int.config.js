module.exports = require('./kinds')('int');
