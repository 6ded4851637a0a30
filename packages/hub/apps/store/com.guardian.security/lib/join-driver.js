const Homey = require('homey');

/**
 * A driver whose devices join over the app's own radio stand-in: each `zigbee_join` (or `list_devices`) finds
 * one new device, named after the driver and numbered from the second on.
 */
module.exports = class JoinDriver extends Homey.Driver {
  async onPair(session) {
    const found = () => {
      const number = this.getDevices().length + 1;
      const id = `${this.id}-${Date.now().toString(36)}-${number}`;
      return { name: `${this.manifest.name.en}${number > 1 ? ` ${number}` : ''}`, data: { id } };
    };
    session.setHandler('zigbee_join', async () => found());
    session.setHandler('list_devices', async () => [found()]);
  }
};
