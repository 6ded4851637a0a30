const Homey = require('homey');

/** How often the meter is read (ms); the demo shortens it with WATTWISE_TICK_MS in env.json. */
const tickMs = () => Number(Homey.env.WATTWISE_TICK_MS ?? 10_000);

/** The tariff at `date`: low from 23:00 to 07:00 and in weekends. */
function tariffAt(date) {
  const hour = date.getHours();
  const weekend = date.getDay() === 0 || date.getDay() === 6;
  return weekend || hour >= 23 || hour < 7 ? 'low' : 'normal';
}

/**
 * A smart meter read over P1. The dongle is a stand-in: the household's use follows a daily curve with some noise,
 * and the meter counts what it used.
 */
module.exports = class P1Meter extends Homey.Device {
  async onInit() {
    this.lastRead = Date.now();
    await this.read();
    this.homey.setInterval(() => this.read().catch((error) => this.error(error)), tickMs());
  }

  async read() {
    const now = new Date();
    const hour = now.getHours() + now.getMinutes() / 60;
    const evening = Math.exp(-((hour - 19) ** 2) / 6);
    const power = Math.round(250 + evening * 1600 + Math.random() * 120);
    const hours = (now.getTime() - this.lastRead) / 3_600_000;
    this.lastRead = now.getTime();
    const meter = (this.getCapabilityValue('meter_power') ?? 0) + (power / 1000) * hours;
    await this.setCapabilityValue('measure_power', power);
    await this.setCapabilityValue('meter_power', Math.round(meter * 1000) / 1000);
    const tariff = tariffAt(now);
    if (this.getCapabilityValue('wattwise_tariff') !== tariff) {
      await this.setCapabilityValue('wattwise_tariff', tariff);
      await this.homey.app.tariffChanged.trigger(this, { tariff }, {});
    }
  }
};
