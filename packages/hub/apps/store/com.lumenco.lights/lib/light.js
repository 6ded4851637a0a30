const Homey = require('homey');

/** Each scene's brightness and colour temperature (0 cold … 1 warm). */
const SCENES = {
  relax: { dim: 0.3, light_temperature: 0.9 },
  read: { dim: 0.8, light_temperature: 0.4 },
  energize: { dim: 1, light_temperature: 0.1 },
};

/** A Lumen & Co light: switches and dims; a bulb also takes colours, colour temperatures and scenes. */
module.exports = class LumenLight extends Homey.Device {
  async onInit() {
    this.registerMultipleCapabilityListener(['onoff', 'dim'], async (values) => this.switchAndDim(values), 200);
    for (const id of ['light_hue', 'light_saturation'])
      if (this.hasCapability(id)) this.registerCapabilityListener(id, async () => this.setMode('color'));
    if (this.hasCapability('light_temperature'))
      this.registerCapabilityListener('light_temperature', async () => this.setMode('temperature'));
  }

  /** Dimming a light that is off switches it on, and dimming to 0 switches it off, as the bulbs do themselves. */
  async switchAndDim({ onoff, dim }) {
    if (dim !== undefined && onoff === undefined && this.getCapabilityValue('onoff') !== dim > 0)
      await this.setCapabilityValue('onoff', dim > 0);
    const what = [onoff === undefined ? null : onoff ? 'on' : 'off', dim === undefined ? null : `${Math.round(dim * 100)} %`];
    this.log(`${this.getName()}: ${what.filter(Boolean).join(', ')} over ${this.homey.app.transition()} ms`);
  }

  async setMode(mode) {
    if (this.hasCapability('light_mode')) await this.setCapabilityValue('light_mode', mode);
  }

  /** Sets scene `scene` (a flow's action) and starts the flows waiting for a scene change. */
  async setScene(scene) {
    const levels = SCENES[scene];
    if (!levels) throw new Error(`Unknown scene ${scene}`);
    await this.setCapabilityValue('onoff', true);
    await this.setCapabilityValue('dim', levels.dim);
    if (this.hasCapability('light_temperature')) await this.setCapabilityValue('light_temperature', levels.light_temperature);
    await this.setMode('temperature');
    await this.setStoreValue('scene', scene);
    this.log(`${this.getName()}: scene ${scene}`);
    await this.homey.app.sceneChanged.trigger(this, { scene }, {});
  }
};
