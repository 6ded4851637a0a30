const Homey = require('homey');

/**
 * NordHeat Climate: electric floor heating. The app registers the flow cards every thermostat shares; each
 * thermostat (drivers/thermostat/device.js) runs its own room model.
 */
module.exports = class NordHeatApp extends Homey.App {
  async onInit() {
    this.heatingStarted = this.homey.flow.getDeviceTriggerCard('heating_started');
    this.heatingStopped = this.homey.flow.getDeviceTriggerCard('heating_stopped');
    this.homey.flow.getConditionCard('is_heating').registerRunListener(async ({ device }) => device.isHeating());
    this.homey.flow.getActionCard('boost').registerRunListener(async ({ device, degrees, minutes }) => ({
      target: await device.boost(degrees, minutes),
    }));
    this.homey.on('unload', () => this.log('NordHeat Climate is stopping'));
    this.log('NordHeat Climate has been initialized');
  }
};
