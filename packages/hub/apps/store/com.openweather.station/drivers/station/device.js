const Homey = require('homey');
const { readWeather, STAND_IN } = require('../../lib/weather-source');

/** How often the station reads the weather; `OPENWEATHER_POLL_MS` in env.json (or a devkit run's env) changes it. */
const DEFAULT_POLL_MS = 10 * 60_000;
/** The batteries of a station last about a year. */
const BATTERY_DAYS = 365;
const DAY_MS = 86_400_000;

/** A weather station: reads the weather now and then and reports it as its capabilities. */
module.exports = class Station extends Homey.Device {
  async onInit() {
    if (this.getStoreValue('pairedAt') === null) await this.setStoreValue('pairedAt', Date.now());
    const pollMs = Number(this.homey.env.OPENWEATHER_POLL_MS) || DEFAULT_POLL_MS;
    this.homey.setInterval(() => this.refresh().catch((error) => this.error('refresh failed:', error)), pollMs);
    // The first reading may wait on the network; the device is ready before it arrives.
    this.refresh().catch((error) => this.error('refresh failed:', error));
  }

  /** Reads the weather now and reports it; answers the readings. */
  async refresh() {
    const readings = await readWeather(this.homey);
    await this.setCapabilityValue('measure_temperature', readings.temperature);
    if (readings.humidity !== null) await this.setCapabilityValue('measure_humidity', Math.round(readings.humidity));
    await this.setCapabilityValue('measure_luminance', readings.luminance);
    const days = (Date.now() - this.getStoreValue('pairedAt')) / DAY_MS;
    await this.setCapabilityValue('measure_battery', Math.max(5, Math.round(100 - (100 * days) / BATTERY_DAYS)));
    const warning =
      readings.source === STAND_IN
        ? `Readings come from a local stand-in model: ${readings.fallbackReason}`
        : readings.modelled
          ? `Readings come from ${readings.source}, a model of a typical day: not measured, not a forecast`
          : null;
    if (warning !== this.warning) {
      await this.setWarning(warning);
      this.warning = warning;
    }
    this.latest = { ...readings, at: new Date().toISOString() };
    this.log(
      `${this.getName()}: ${readings.temperature} °C, ${readings.humidity} %, ${readings.luminance} lx (${readings.source})`,
    );
    return readings;
  }
};
