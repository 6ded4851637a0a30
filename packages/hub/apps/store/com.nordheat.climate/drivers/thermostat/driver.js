const Homey = require('homey');

/**
 * The floors this app offers to pair. NordHeat thermostats are Z-Wave devices, but a Hearth hub gives apps no
 * Z-Wave radio (`this.homey.zwave` refuses), so the demo app stands in for the radio: it offers three floors and
 * runs each one's room model itself (lib/heating-model.js).
 */
const FLOORS = [
  { id: 'floor-bathroom', name: 'Bathroom floor' },
  { id: 'floor-kitchen', name: 'Kitchen floor' },
  { id: 'floor-hallway', name: 'Hallway floor' },
];

module.exports = class ThermostatDriver extends Homey.Driver {
  /** Offers the floors that are not paired yet. */
  async onPairListDevices() {
    const paired = new Set(this.getDevices().map((device) => device.getData().id));
    return FLOORS.filter((floor) => !paired.has(floor.id)).map((floor) => ({
      name: floor.name,
      data: { id: floor.id },
      settings: { heater_power: 1450, room_base_temperature: 17, hysteresis: 0.2 },
    }));
  }
};
