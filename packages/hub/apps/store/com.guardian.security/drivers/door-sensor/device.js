const GuardianSensor = require('../../lib/sensor');

/** A door contact: now and then the door opens for a while. */
module.exports = class DoorSensor extends GuardianSensor {
  async onInit() {
    await super.onInit();
    if (this.getCapabilityValue('alarm_tamper') === null) await this.setCapabilityValue('alarm_tamper', false);
  }

  async sense(tickMs) {
    if (Math.random() < 0.05) await this.pulse('alarm_contact', tickMs / 3);
  }
};
