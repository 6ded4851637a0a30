const { randomBytes } = require('node:crypto');
const Homey = require('homey');

/**
 * A driver of Zigbee lights. A Hearth hub gives apps no Zigbee radio (`this.homey.zigbee` refuses), so the app
 * stands in for the mesh: the `zigbee_join` view (and `list_devices`) finds one new light at a time.
 */
module.exports = class ZigbeeDriver extends Homey.Driver {
  async onPair(session) {
    session.setHandler('zigbee_join', async () => this.joined());
    session.setHandler('list_devices', async () => [this.joined()]);
  }

  joined() {
    const count = this.getDevices().length;
    const name = this.manifest.name.en;
    const ieeeAddress = randomBytes(8)
      .toString('hex')
      .replace(/(..)(?!$)/g, '$1:');
    return { name: count === 0 ? name : `${name} ${count + 1}`, data: { id: ieeeAddress, ieeeAddress } };
  }
};
