const Homey = require('homey');

/**
 * Lumen & Co Lights: Zigbee bulbs and strips that switch, dim (with the app's `transition` setting) and, for
 * bulbs, take colours and scenes. Flow cards: `scene_changed` (trigger), `scene_is` (condition), `set_scene`
 * (action).
 */
module.exports = class LumenApp extends Homey.App {
  async onInit() {
    this.sceneChanged = this.homey.flow.getDeviceTriggerCard('scene_changed');
    this.homey.flow.getActionCard('set_scene').registerRunListener(async ({ device, scene }) => device.setScene(scene));
    this.homey.flow
      .getConditionCard('scene_is')
      .registerRunListener(async ({ device, scene }) => device.getStoreValue('scene') === scene);
    this.log('Lumen & Co Lights has been initialized');
  }

  /** How long a light takes to reach a new level, in ms (the app's setting). */
  transition() {
    return this.homey.settings.get('transition') ?? 400;
  }
};
