module.exports = require('../../lib/light');
