module.exports = require('../../lib/zigbee-driver');
