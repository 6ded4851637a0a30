const Homey = require('homey');

/** How often a sensor reports (ms); the demo shortens it with GUARDIAN_TICK_MS in env.json. */
const tickMs = () => Number(Homey.env.GUARDIAN_TICK_MS ?? 60_000);

/**
 * A battery sensor of Guardian. A Hearth hub gives apps no Zigbee radio, so the app models what the sensor
 * reports: every tick it may sense something (`sense`, per kind of sensor) and its battery runs down slowly.
 */
module.exports = class GuardianSensor extends Homey.Device {
  async onInit() {
    if (this.getCapabilityValue('measure_battery') === null) await this.setCapabilityValue('measure_battery', 100);
    this.homey.setInterval(() => this.tick().catch((error) => this.error(error)), tickMs());
  }

  async tick() {
    await this.sense(tickMs());
    const battery = this.getCapabilityValue('measure_battery') ?? 100;
    if (Math.random() < 0.02 && battery > 0) await this.setCapabilityValue('measure_battery', battery - 1);
    if (this.hasCapability('alarm_battery')) await this.setCapabilityValue('alarm_battery', battery <= 10);
  }

  /** What the sensor senses this tick; `true` for an alarm that ends by itself `forMs` later. */
  async pulse(capabilityId, forMs) {
    await this.setCapabilityValue(capabilityId, true);
    await this.homey.app.sensed(this);
    this.homey.setTimeout(() => this.setCapabilityValue(capabilityId, false).catch((error) => this.error(error)), forMs);
  }

  async sense() {}
};
