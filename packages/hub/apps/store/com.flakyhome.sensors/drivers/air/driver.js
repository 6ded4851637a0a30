const Homey = require('homey');

module.exports = class AirDriver extends Homey.Driver {
  async onInit() {
    this.readings = {};
    this.homey.setTimeout(() => this.onPoll(), 150);
  }

  async onPairListDevices() {
    return [{ name: 'Air quality sensor', data: { id: `air-${Date.now()}` } }];
  }

  /** The bug: the first poll reads a reading that never arrived. */
  onPoll() {
    const latest = this.readings.latest;
    for (const device of this.getDevices()) device.setCapabilityValue('measure_co2', latest.co2).catch(this.error);
    return latest.co2;
  }
};
