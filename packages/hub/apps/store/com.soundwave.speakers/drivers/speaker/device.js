const Homey = require('homey');
const { PLAYLISTS, cover } = require('../../lib/playlists');

/** How long a track plays (ms); the demo shortens it with SOUNDWAVE_TRACK_MS in env.json. */
const trackMs = () => Number(Homey.env.SOUNDWAVE_TRACK_MS ?? 180_000);

/** A speaker: plays a playlist track by track, shows the track and its cover, and obeys play, pause and volume. */
module.exports = class Speaker extends Homey.Device {
  async onInit() {
    this.art = await this.homey.images.createImage();
    this.art.setStream(async (stream) => stream.end(cover(this.track())));
    await this.art.update();
    await this.setAlbumArtImage(this.art);
    this.registerCapabilityListener('speaker_playing', async (playing) => (playing ? this.play() : this.pause()));
    this.registerCapabilityListener('volume_set', async (volume) =>
      this.log(`${this.getName()}: volume ${Math.round(volume * 100)} %`),
    );
    this.registerCapabilityListener('volume_mute', async (mute) => this.log(`${this.getName()}: ${mute ? 'muted' : 'unmuted'}`));
    if (this.getCapabilityValue('volume_set') === null) await this.setCapabilityValue('volume_set', 0.4);
    if (!this.getCapabilityValue('speaker_track')) await this.setCapabilityValue('speaker_track', this.trackText());
    if (this.getCapabilityValue('speaker_playing') === true) this.play();
  }

  /** The track it plays (or would play): from its store, the first of the morning playlist at first. */
  track() {
    const tracks = PLAYLISTS[this.getStoreValue('playlist')] ?? PLAYLISTS.morning;
    return tracks[(this.getStoreValue('index') ?? 0) % tracks.length];
  }

  trackText() {
    const { title, artist } = this.track();
    return `${title} – ${artist}`;
  }

  play() {
    this.homey.clearInterval(this.timer);
    this.timer = this.homey.setInterval(() => this.next().catch((error) => this.error(error)), trackMs());
    this.log(`${this.getName()}: playing ${this.track().title}`);
  }

  pause() {
    this.homey.clearInterval(this.timer);
    this.log(`${this.getName()}: paused`);
  }

  async onUninit() {
    this.homey.clearInterval(this.timer);
  }

  /** Starts playlist `id` from its first track (a flow's action). */
  async playPlaylist(id) {
    if (!PLAYLISTS[id]) throw new Error(`Unknown playlist ${id}`);
    await this.setStoreValue('playlist', id);
    await this.setStoreValue('index', 0);
    await this.setCapabilityValue('speaker_playing', true);
    this.play();
    await this.showTrack();
  }

  /** Skips to the next track of the playlist. */
  async next() {
    await this.setStoreValue('index', (this.getStoreValue('index') ?? 0) + 1);
    await this.showTrack();
  }

  /** Shows the current track and its cover, and starts the flows waiting for a new track. */
  async showTrack() {
    const { title, artist } = this.track();
    await this.setCapabilityValue('speaker_track', this.trackText());
    await this.art.update();
    await this.homey.app.trackChanged.trigger(this, { track: title, artist }, {});
  }
};
