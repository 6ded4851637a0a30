const Homey = require('homey');

module.exports = class P1Driver extends Homey.Driver {
  /** The meter on the P1 port of the WattWise dongle (one per dongle; a new one is numbered). */
  async onPairListDevices() {
    const number = this.getDevices().length + 1;
    return [{ name: number === 1 ? 'Smart meter' : `Smart meter ${number}`, data: { id: `p1-${Date.now().toString(36)}` } }];
  }
};
