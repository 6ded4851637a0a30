const GuardianSensor = require('../../lib/sensor');

/** A motion sensor that also measures the room's temperature and light. */
module.exports = class MotionSensor extends GuardianSensor {
  async sense(tickMs) {
    const hour = new Date().getHours();
    const daylight = Math.max(0, Math.sin(((hour - 6) / 24) * 2 * Math.PI));
    await this.setCapabilityValue('measure_luminance', Math.round(daylight * 600 + Math.random() * 20));
    await this.setCapabilityValue('measure_temperature', Math.round((19 + daylight * 3 + Math.random()) * 10) / 10);
    if (Math.random() < 0.15) await this.pulse('alarm_motion', tickMs / 2);
  }
};
