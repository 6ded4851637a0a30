const Homey = require('homey');

/**
 * Guardian Security: motion and door sensors and a panic button. While the system is armed (the app's `armed`
 * setting), motion or an opening door is an intrusion. Flow cards: `intrusion` and `panic_pressed` (triggers),
 * `is_armed` (condition), `arm` and `disarm` (actions).
 */
module.exports = class GuardianApp extends Homey.App {
  async onInit() {
    this.intrusion = this.homey.flow.getTriggerCard('intrusion');
    this.panic = this.homey.flow.getDeviceTriggerCard('panic_pressed');
    this.homey.flow.getConditionCard('is_armed').registerRunListener(async () => this.isArmed());
    this.homey.flow.getActionCard('arm').registerRunListener(async () => this.setArmed(true));
    this.homey.flow.getActionCard('disarm').registerRunListener(async () => this.setArmed(false));
    this.log(`Guardian Security has been initialized (${this.isArmed() ? 'armed' : 'disarmed'})`);
  }

  isArmed() {
    return this.homey.settings.get('armed') === true;
  }

  setArmed(armed) {
    this.homey.settings.set('armed', armed);
    this.log(armed ? 'The system is armed' : 'The system is disarmed');
  }

  /** A sensor saw someone: an intrusion while the system is armed. */
  async sensed(device) {
    if (!this.isArmed()) return;
    this.log(`Intrusion at ${device.getName()}`);
    await this.intrusion.trigger({ sensor: device.getName() });
  }
};
