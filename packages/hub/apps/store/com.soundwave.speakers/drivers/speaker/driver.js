const Homey = require('homey');

/** The speakers SoundWave finds on the network (a stand-in for its SSDP discovery). */
const SPEAKERS = [
  { id: 'sw-kitchen', name: 'Kitchen speaker' },
  { id: 'sw-living', name: 'Living room speaker' },
  { id: 'sw-bedroom', name: 'Bedroom speaker' },
];

module.exports = class SpeakerDriver extends Homey.Driver {
  /** Offers the speakers that are not paired yet. */
  async onPairListDevices() {
    const paired = new Set(this.getDevices().map((device) => device.getData().id));
    return SPEAKERS.filter((speaker) => !paired.has(speaker.id)).map((speaker) => ({
      name: speaker.name,
      data: { id: speaker.id },
    }));
  }
};
