module.exports = require('../../lib/join-driver');
