const Homey = require('homey');

module.exports = class StationDriver extends Homey.Driver {
  /** One station per home: it reports the weather at the hub's location. */
  async onPairListDevices() {
    if (this.getDevices().length > 0) return [];
    return [{ name: 'Weather station', data: { id: 'station-home' }, store: { pairedAt: Date.now() } }];
  }
};
