const Homey = require('homey');
const { suggest, melodyById, inQuietHours } = require('./lib/melodies');

/**
 * Hearth Chime: door chimes that ring with a melody (the app's `melody` setting), softly during quiet hours.
 * Flow cards: `rang` (a chime rang, optionally with one melody only), `quiet_hours` and `volume_above`
 * (conditions), `play_melody` and `set_melody` (actions); the melody arguments autocomplete.
 */
module.exports = class ChimeApp extends Homey.App {
  async onInit() {
    this.rang = this.homey.flow.getDeviceTriggerCard('rang');
    // A flow that names a melody starts only for rings with that melody; one without starts on every ring.
    this.rang.registerRunListener(async (args, state) => !args.melody || args.melody.id === state.melody);
    this.rang.registerArgumentAutocompleteListener('melody', async (query) => suggest(query));

    this.homey.flow.getConditionCard('quiet_hours').registerRunListener(async () => this.isQuietHours());
    this.homey.flow
      .getConditionCard('volume_above')
      .registerRunListener(async ({ device, level }) => device.getCapabilityValue('volume_set') > level);

    this.homey.flow
      .getActionCard('play_melody')
      .registerRunListener(async ({ device, melody, times }) => ({ duration: await device.play(melody.id, times) }))
      .registerArgumentAutocompleteListener('melody', async (query) => suggest(query));
    this.homey.flow
      .getActionCard('set_melody')
      .registerRunListener(async ({ melody }) => {
        this.homey.settings.set('melody', melody.id);
        return {};
      })
      .registerArgumentAutocompleteListener('melody', async (query) => suggest(query));

    this.homey.settings.on('set', (key) => {
      if (key === 'melody') this.log(`The doorbell now rings with ${this.melody().name}`);
    });
    this.log('Hearth Chime has been initialized');
  }

  /** The melody the doorbell rings with. */
  melody() {
    return melodyById(this.homey.settings.get('melody'));
  }

  /** Whether it is quiet hours now, in the hub's time zone. */
  isQuietHours() {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone: this.homey.clock.getTimezone() }).format(
        new Date(),
      ),
    );
    return inQuietHours(hour, this.homey.settings.get('quiet_from') ?? 22, this.homey.settings.get('quiet_until') ?? 7);
  }
};
