const Homey = require('homey');
const { melodyById } = require('../../lib/melodies');

/** Volume during quiet hours, whatever the chime is set to. */
const QUIET_VOLUME = 0.2;

/** A door chime: pressing its button (the doorbell) rings it; a flow can play any melody on it. */
module.exports = class Chime extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('button', async () => this.ring());
    this.registerCapabilityListener('volume_set', async (value) => {
      this.log(`${this.getName()}: volume ${Math.round(value * 100)} %`);
    });
  }

  async onAdded() {
    if (this.getCapabilityValue('volume_set') === null) await this.setCapabilityValue('volume_set', 0.6);
  }

  /** The volume it rings at now: softly during quiet hours. */
  volume() {
    const volume = this.getCapabilityValue('volume_set') ?? 0.6;
    return this.homey.app.isQuietHours() ? Math.min(volume, QUIET_VOLUME) : volume;
  }

  /** Someone rang the doorbell: plays the app's melody and starts the flows waiting for this ring. */
  async ring() {
    const melody = this.homey.app.melody();
    const volume = this.volume();
    const quiet = this.homey.app.isQuietHours();
    this.log(`${this.getName()} rang: ${melody.name} at ${Math.round(volume * 100)} %${quiet ? ' (quiet hours)' : ''}`);
    await this.homey.app.rang.trigger(this, { melody: melody.name, volume, quiet }, { melody: melody.id });
  }

  /** Plays `melodyId` `times` times (a flow's action); answers how many seconds that takes. */
  async play(melodyId, times) {
    const melody = melodyById(melodyId);
    this.log(`${this.getName()}: playing ${melody.name} ${times} times at ${Math.round(this.volume() * 100)} %`);
    return melody.seconds * times;
  }
};
