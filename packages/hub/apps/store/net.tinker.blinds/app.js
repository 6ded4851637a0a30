const Homey = require('homey');

/**
 * Tinker Blinds: 433 MHz roller blinds, learned from their remote. Flow cards: `fully_closed` (trigger),
 * `is_open` (condition), `set_position` (action).
 */
module.exports = class TinkerBlindsApp extends Homey.App {
  async onInit() {
    this.fullyClosed = this.homey.flow.getDeviceTriggerCard('fully_closed');
    this.homey.flow
      .getConditionCard('is_open')
      .registerRunListener(async ({ device }) => (device.getCapabilityValue('windowcoverings_set') ?? 0) > 0);
    this.homey.flow.getActionCard('set_position').registerRunListener(async ({ device, position }) => device.moveTo(position));
    this.log('Tinker Blinds has been initialized');
  }
};
