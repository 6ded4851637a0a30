import { describe, expect, it } from 'vitest';
import { devicesAndHub } from '../../testing/matter';

/**
 * The sensors of the Matter device library and a plug that measures its load, each a virtual device (one process,
 * a node each) commissioned through the hub's pair session: each measurement reaches its capability in the
 * ecosystem's units.
 */
describe('Matter sensors on the hub’s own fabric', () => {
  const rig = devicesAndHub('sensors', [
    'contact-sensor',
    'temperature-sensor',
    'occupancy-sensor',
    'humidity-sensor',
    'light-sensor',
    'power-plug',
  ]);

  it('makes a contact sensor whose alarm follows the sensor opening and closing', async () => {
    const added = await rig.commission('contact-sensor');
    expect(added.class).toBe('sensor');
    expect(added.capabilities).toEqual(['alarm_contact']);
    rig.devices['contact-sensor'].send('contact open');
    const open = await rig.until('contact-sensor', (d) => d.capabilitiesObj.alarm_contact?.value === true);
    expect(open.capabilitiesObj.alarm_contact?.value).toBe(true);
    rig.devices['contact-sensor'].send('contact closed');
    const closed = await rig.until('contact-sensor', (d) => d.capabilitiesObj.alarm_contact?.value === false);
    expect(closed.capabilitiesObj.alarm_contact?.value).toBe(false);
  });

  it('makes a temperature sensor reporting °C from its 0.01 °C measurements', async () => {
    const added = await rig.commission('temperature-sensor');
    expect(added.capabilities).toEqual(['measure_temperature']);
    rig.devices['temperature-sensor'].send('temperature 2150');
    const measured = await rig.until('temperature-sensor', (d) => d.capabilitiesObj.measure_temperature?.value === 21.5);
    expect(measured.capabilitiesObj.measure_temperature?.value).toBe(21.5);
  });

  it('refuses a capability write the device type has no command for with a 400', async () => {
    const write = await rig.write('temperature-sensor', 'measure_temperature', 30);
    expect(write.status).toBe(400);
  });

  it('makes an occupancy sensor whose motion alarm follows what it senses', async () => {
    const added = await rig.commission('occupancy-sensor');
    expect(added.class).toBe('sensor');
    expect(added.capabilities).toEqual(['alarm_motion']);
    expect(added.capabilitiesObj.alarm_motion?.value).toBe(false);
    rig.devices['occupancy-sensor'].send('set occupancySensing.occupancy {"occupied":true}');
    const moving = await rig.until('occupancy-sensor', (d) => d.capabilitiesObj.alarm_motion?.value === true);
    expect(moving.capabilitiesObj.alarm_motion?.value).toBe(true);
  });

  it('makes humidity (0.01 %) and light (10,000 × log10 lux + 1) sensors report % and lux', async () => {
    expect((await rig.commission('humidity-sensor')).capabilities).toEqual(['measure_humidity']);
    rig.devices['humidity-sensor'].send('set relativeHumidityMeasurement.measuredValue 5525');
    const humid = await rig.until('humidity-sensor', (d) => d.capabilitiesObj.measure_humidity?.value === 55.25);
    expect(humid.capabilitiesObj.measure_humidity?.value).toBe(55.25);

    const light = await rig.commission('light-sensor');
    expect(light.capabilities).toEqual(['measure_luminance']);
    rig.devices['light-sensor'].send('set illuminanceMeasurement.measuredValue 20001');
    const dim = await rig.until('light-sensor', (d) => d.capabilitiesObj.measure_luminance?.value === 100);
    expect(dim.capabilitiesObj.measure_luminance?.value).toBe(100);
  });

  it('makes a plug that measures its load: switched from the hub, power in W and energy in kWh from the node', async () => {
    const plug = rig.devices['power-plug'];
    const added = await rig.commission('power-plug');
    expect(added.class).toBe('socket');
    expect(added.capabilities).toEqual(['onoff', 'measure_power', 'meter_power']);

    const on = plug.next((line) => line.event === 'onoff' && line.value === true);
    expect((await rig.write('power-plug', 'onoff', true)).status).toBe(204);
    await expect(on).resolves.toMatchObject({ value: true });

    // 60,000 mW and 1,500,000 mWh.
    plug.send('set electricalPowerMeasurement.activePower 60000');
    plug.send('set electricalEnergyMeasurement.cumulativeEnergyImported {"energy":1500000}');
    const measured = await rig.until(
      'power-plug',
      (d) => d.capabilitiesObj.measure_power?.value === 60 && d.capabilitiesObj.meter_power?.value === 1.5,
    );
    expect(measured.capabilitiesObj.measure_power?.value).toBe(60);
    expect(measured.capabilitiesObj.meter_power?.value).toBe(1.5);
  });
});
