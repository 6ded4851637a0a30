const Homey = require('homey');

module.exports = class BlindsDriver extends Homey.Driver {
  /**
   * Learns a blind from its remote's signal (`rf_learn`). A Hearth hub gives apps no 433 MHz radio, so the view's
   * signal (or a default one) stands in for what the radio would have heard.
   */
  async onPair(session) {
    const learned = (signal) => {
      const number = this.getDevices().length + 1;
      const code = Array.isArray(signal) ? signal.slice(0, 64) : [350, 1050, 350, 1050, 1050, 350];
      const id = `${code.join('.')}-${Date.now().toString(36)}`;
      return { name: number === 1 ? 'Roller blinds' : `Roller blinds ${number}`, data: { id, signal: code } };
    };
    session.setHandler('rf_learn', async (data) => learned(data?.signal));
    session.setHandler('list_devices', async () => [learned()]);
  }
};
