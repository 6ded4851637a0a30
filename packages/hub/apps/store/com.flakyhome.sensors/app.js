const Homey = require('homey');

/** FlakyHome Sensors: a community app of the demo world that crashes on purpose (a bug in its poller). */
module.exports = class FlakyHomeApp extends Homey.App {
  async onInit() {
    this.log('FlakyHome Sensors is starting');
  }
};
