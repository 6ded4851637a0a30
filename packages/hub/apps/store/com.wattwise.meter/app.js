const Homey = require('homey');

/**
 * WattWise Energy: a P1 smart meter reader. It reports the household's power and meter reading, and its own
 * capability `wattwise_tariff` (declared in app.json): the low tariff at night and in weekends. Flow cards:
 * `tariff_changed` (trigger), `power_above` (condition), `report` (action, answers power and energy as tokens).
 */
module.exports = class WattWiseApp extends Homey.App {
  async onInit() {
    this.tariffChanged = this.homey.flow.getDeviceTriggerCard('tariff_changed');
    this.homey.flow
      .getConditionCard('power_above')
      .registerRunListener(async ({ device, watts }) => (device.getCapabilityValue('measure_power') ?? 0) > watts);
    this.homey.flow.getActionCard('report').registerRunListener(async ({ device }) => ({
      power: device.getCapabilityValue('measure_power') ?? 0,
      energy: device.getCapabilityValue('meter_power') ?? 0,
    }));
    this.log('WattWise Energy has been initialized');
  }
};
