const Homey = require('homey');

/**
 * SoundWave Speakers: network speakers that play playlists, with each track's cover as the speaker's album art.
 * Flow cards: `track_changed` (trigger), `is_playing` (condition), `play_playlist` and `next_track` (actions).
 */
module.exports = class SoundWaveApp extends Homey.App {
  async onInit() {
    this.trackChanged = this.homey.flow.getDeviceTriggerCard('track_changed');
    this.homey.flow
      .getConditionCard('is_playing')
      .registerRunListener(async ({ device }) => device.getCapabilityValue('speaker_playing') === true);
    this.homey.flow
      .getActionCard('play_playlist')
      .registerRunListener(async ({ device, playlist }) => device.playPlaylist(playlist));
    this.homey.flow.getActionCard('next_track').registerRunListener(async ({ device }) => device.next());
    this.log('SoundWave Speakers has been initialized');
  }
};
