const Homey = require('homey');

/** Weather Station: each station device reads the weather outside the home (see lib/weather-source.js). */
module.exports = class WeatherStationApp extends Homey.App {
  async onInit() {
    this.homey.flow.getActionCard('refresh').registerRunListener(async ({ device }) => {
      const readings = await device.refresh();
      return { temperature: readings.temperature, source: readings.source };
    });
    this.log('Weather Station has been initialized');
  }
};
