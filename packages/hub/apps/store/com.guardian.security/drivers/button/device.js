const Homey = require('homey');

/** A panic button: a press starts the flows waiting for it. */
module.exports = class PanicButton extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('button', async () => {
      this.log(`${this.getName()} was pressed`);
      await this.homey.app.panic.trigger(this, {}, {});
    });
  }
};
