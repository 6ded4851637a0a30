const Homey = require('homey');
const { step } = require('../../lib/heating-model');

/** How often the room model moves on; `NORDHEAT_TICK_MS` in env.json (or a devkit run's env) changes it. */
const DEFAULT_TICK_MS = 30_000;
/**
 * How many times faster than real time the room model runs: 1 in a home; a demo or a test sets
 * `NORDHEAT_TIME_SCALE` (60: a minute of the room per second) to watch a room warm up without waiting for it.
 */
const timeScale = (homey) => Math.max(1, Number(homey.env.NORDHEAT_TIME_SCALE) || 1);

const round = (value, digits) => Number(value.toFixed(digits));

/**
 * A NordHeat floor thermostat. The hub's writes of the target and the mode go to the listeners below; the room
 * model (lib/heating-model.js) then moves the measured temperature towards what the heating can reach, reports the
 * power the element draws and the energy it used, and fires the heating started/stopped cards. A boost (the flow
 * action) raises the target for a while; it is kept in the device's store so a restart of the app finishes it.
 */
module.exports = class Thermostat extends Homey.Device {
  async onInit() {
    this.model = {
      temperature: this.getCapabilityValue('measure_temperature') ?? this.getSetting('room_base_temperature') ?? 17,
      heating: this.getStoreValue('heating') === true,
      energy: this.getCapabilityValue('meter_power') ?? 0,
    };
    this.lastTick = Date.now();
    this.registerCapabilityListener('target_temperature', async (value) => {
      this.log(`${this.getName()}: target ${value} °C`);
      await this.tick({ target: value });
    });
    this.registerCapabilityListener('thermostat_mode', async (value) => {
      if (value === 'cool') throw new Error('A floor heating cannot cool');
      this.log(`${this.getName()}: mode ${value}`);
      await this.tick({ mode: value });
    });
    const tickMs = Number(this.homey.env.NORDHEAT_TICK_MS) || DEFAULT_TICK_MS;
    this.timer = this.homey.setInterval(() => this.tick().catch((error) => this.error('tick failed:', error)), tickMs);
    await this.resumeBoost();
    await this.tick();
  }

  async onSettings({ newSettings, changedKeys }) {
    if (newSettings.room_base_temperature >= 24 && changedKeys.includes('room_base_temperature'))
      throw new Error('A room that is 24 °C without heating does not need a floor heating');
    this.log(`${this.getName()}: settings changed (${changedKeys.join(', ')})`);
    // The new settings apply from the next step; the model is moved on to now with the old ones first.
    await this.tick();
    if (this.model.heating && changedKeys.includes('heater_power'))
      await this.setCapabilityValue('measure_power', newSettings.heater_power);
    return changedKeys.includes('heater_power') ? `The element now draws ${newSettings.heater_power} W while heating` : undefined;
  }

  onRenamed(name) {
    this.log(`renamed to ${name}`);
  }

  async onDeleted() {
    this.log(`${this.getName()} removed`);
  }

  /** Whether the element heats now (the is_heating condition). */
  isHeating() {
    return this.model.heating;
  }

  /**
   * Moves the room model on to now and reports what changed. `pending` holds a target or mode being written (the
   * listener runs before the hub stores it): the room moved on with the old ones until now, and the element
   * decides at once with the new ones.
   */
  async tick(pending = {}) {
    const now = Date.now();
    const seconds = (Math.max(0, now - this.lastTick) / 1000) * timeScale(this.homey);
    this.lastTick = now;
    const settings = {
      heaterPower: this.getSetting('heater_power') ?? 1450,
      baseTemperature: this.getSetting('room_base_temperature') ?? 17,
      hysteresis: this.getSetting('hysteresis') ?? 0.2,
    };
    const before = {
      target: this.getCapabilityValue('target_temperature') ?? 21,
      mode: this.getCapabilityValue('thermostat_mode') ?? 'heat',
    };
    const after = { target: pending.target ?? before.target, mode: pending.mode ?? before.mode };
    const wasHeating = this.model.heating;
    this.model = step(this.model, { ...settings, ...before, seconds });
    this.model = step(this.model, { ...settings, ...after, seconds: 0 });
    await this.report('measure_temperature', round(this.model.temperature, 1));
    await this.report('measure_power', round(this.model.power, 1));
    await this.report('meter_power', round(this.model.energy, 4));
    if (this.model.heating === wasHeating) return;
    await this.setStoreValue('heating', this.model.heating);
    const tokens = { temperature: round(this.model.temperature, 1), target: after.target };
    const card = this.model.heating ? this.homey.app.heatingStarted : this.homey.app.heatingStopped;
    this.log(`${this.getName()}: heating ${this.model.heating ? 'started' : 'stopped'} at ${tokens.temperature} °C`);
    await card.trigger(this, tokens).catch((error) => this.error('trigger failed:', error));
  }

  /** Reports a value only when it changed, so an idle room does not write to the hub on every tick. */
  async report(capabilityId, value) {
    if (this.getCapabilityValue(capabilityId) === value) return;
    await this.setCapabilityValue(capabilityId, value);
  }

  /** Raises the target by `degrees` for `minutes`, then puts the previous target back. Answers the boosted target. */
  async boost(degrees, minutes) {
    const boost = this.getStoreValue('boost');
    const base = boost ? boost.previousTarget : (this.getCapabilityValue('target_temperature') ?? 21);
    const { max = 28 } = this.getCapabilityOptions('target_temperature');
    const target = Math.min(max, base + degrees);
    await this.setStoreValue('boost', { previousTarget: base, until: Date.now() + minutes * 60_000 });
    await this.setCapabilityValue('target_temperature', target);
    await this.tick({ target });
    await this.resumeBoost();
    return target;
  }

  /** Ends a boost when it is due (now, or later with a timer that ends with the app). */
  async resumeBoost() {
    this.homey.clearTimeout(this.boostTimer);
    const boost = this.getStoreValue('boost');
    if (!boost) return;
    const end = async () => {
      await this.unsetStoreValue('boost');
      await this.setCapabilityValue('target_temperature', boost.previousTarget);
      this.log(`${this.getName()}: boost ended, back to ${boost.previousTarget} °C`);
      await this.tick({ target: boost.previousTarget });
    };
    const left = boost.until - Date.now();
    if (left <= 0) await end();
    else this.boostTimer = this.homey.setTimeout(() => end().catch((error) => this.error('boost end failed:', error)), left);
  }
};
