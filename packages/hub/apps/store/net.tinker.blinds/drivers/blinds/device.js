const Homey = require('homey');

/** How long the blinds take to go all the way (ms); the demo shortens it with TINKER_TRAVEL_MS in env.json. */
const travelMs = () => Number(Homey.env.TINKER_TRAVEL_MS ?? 20_000);

/**
 * Roller blinds: up, down, stop, or a position (0 closed … 1 open). They report moving up or down while they
 * travel and idle once there; reaching 0 starts the flows waiting for them to close.
 */
module.exports = class Blinds extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('windowcoverings_set', async (position) => this.travel(position));
    this.registerCapabilityListener('windowcoverings_state', async (state) => {
      if (state === 'idle') return this.stop();
      return this.moveTo(state === 'up' ? 1 : 0);
    });
    if (this.getCapabilityValue('windowcoverings_set') === null) await this.setCapabilityValue('windowcoverings_set', 1);
  }

  /** Moves to `position` (a flow's action). */
  async moveTo(position) {
    await this.travel(position);
    await this.setCapabilityValue('windowcoverings_set', position);
  }

  /** Starts travelling to `position`: reports the direction now and idle once the blinds get there. */
  async travel(position) {
    const from = this.position ?? this.getCapabilityValue('windowcoverings_set') ?? 1;
    this.homey.clearTimeout(this.arriving);
    this.position = position;
    if (from === position) return;
    await this.setCapabilityValue('windowcoverings_state', position > from ? 'up' : 'down');
    this.arriving = this.homey.setTimeout(
      () => this.arrived(position).catch((error) => this.error(error)),
      Math.abs(position - from) * travelMs(),
    );
  }

  async stop() {
    this.homey.clearTimeout(this.arriving);
    this.log(`${this.getName()}: stopped`);
  }

  async arrived(position) {
    await this.setCapabilityValue('windowcoverings_state', 'idle');
    this.log(`${this.getName()}: at ${Math.round(position * 100)} %`);
    if (position === 0) await this.homey.app.fullyClosed.trigger(this, {}, {});
  }
};
