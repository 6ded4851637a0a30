const Homey = require('homey');

/** The chimes a Hearth chime hub on the local network announces (the demo's has two). */
const CHIMES = [
  { id: 'chime-front', name: 'Front door chime' },
  { id: 'chime-back', name: 'Back door chime' },
];

module.exports = class ChimeDriver extends Homey.Driver {
  async onPairListDevices() {
    const paired = new Set(this.getDevices().map((device) => device.getData().id));
    return CHIMES.filter((chime) => !paired.has(chime.id)).map((chime) => ({ name: chime.name, data: { id: chime.id } }));
  }
};
