import { describe, expect, it } from 'vitest';
import { devicesAndHub } from '../../testing/matter';

/**
 * A thermostat, a roller blind and a door lock of the Matter device library, each a virtual device (one process, a
 * node each) commissioned through the hub's pair session: capability writes become the node's commands or
 * attribute writes, read back from the device's own state; a refused write leaves the stored value.
 */
describe('Matter thermostats, window coverings and locks on the hub’s own fabric', () => {
  const rig = devicesAndHub('climate', ['thermostat', 'window-covering', 'door-lock']);

  it('makes a thermostat: its setpoint and mode set from the hub, its temperature from the node', async () => {
    const thermostat = rig.devices.thermostat;
    const added = await rig.commission('thermostat');
    expect(added.class).toBe('thermostat');
    expect(added.capabilities).toEqual(['measure_temperature', 'target_temperature', 'thermostat_mode']);
    expect(added.capabilitiesObj.thermostat_mode?.value).toBe('heat');

    const setpoint = thermostat.next((line) => line.event === 'heatingSetpoint' && line.value === 2150);
    expect((await rig.write('thermostat', 'target_temperature', 21.5)).status).toBe(204);
    await expect(setpoint).resolves.toMatchObject({ value: 2150 });

    // Cooling: the single target temperature now stands for the cooling setpoint (26 °C).
    const cooling = thermostat.next((line) => line.event === 'systemMode' && line.value === 3);
    expect((await rig.write('thermostat', 'thermostat_mode', 'cool')).status).toBe(204);
    await expect(cooling).resolves.toMatchObject({ value: 3 });
    const cool = await rig.until('thermostat', (d) => d.capabilitiesObj.target_temperature?.value === 26);
    expect(cool.capabilitiesObj.thermostat_mode?.value).toBe('cool');
    expect(cool.capabilitiesObj.target_temperature?.value).toBe(26);

    // 33 °C is within the capability's range but above the node's cooling limit (32 °C): the node refuses it.
    const refused = await rig.write('thermostat', 'target_temperature', 33);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(refused.body)).toMatch(/did not take the command/);
    expect((await rig.read('thermostat')).capabilitiesObj.target_temperature?.value).toBe(26);

    thermostat.send('temperature 2250');
    const warmer = await rig.until('thermostat', (d) => d.capabilitiesObj.measure_temperature?.value === 22.5);
    expect(warmer.capabilitiesObj.measure_temperature?.value).toBe(22.5);

    // The node's attributes, read from it: each once, though target temperature and mode both read SystemMode.
    const nodes = (await rig.hub.call<{ id: string; deviceId: string }[]>('GET', '/matter/nodes')).body;
    const nodeId = nodes.find((n) => n.deviceId === added.id)?.id;
    const attributes = (
      await rig.hub.call<{ endpoint: number; clusterName: string; attributeName: string }[]>(
        'GET',
        `/matter/node/${nodeId}/attributes`,
      )
    ).body.filter((a) => a.clusterName === 'Thermostat');
    const names = attributes.map((a) => `${a.endpoint}/${a.attributeName}`);
    expect(new Set(names).size).toBe(names.length);
    expect(names.map((name) => name.split('/')[1]).sort()).toEqual(
      ['localTemperature', 'occupiedCoolingSetpoint', 'occupiedHeatingSetpoint', 'systemMode'].sort(),
    );
  });

  it('makes a roller blind: its position set from the hub (1 is open), and followed when moved at the blind', async () => {
    const blind = rig.devices['window-covering'];
    const added = await rig.commission('window-covering');
    expect(added.class).toBe('windowcoverings');
    expect(added.capabilities).toEqual(['windowcoverings_set', 'windowcoverings_state']);
    expect(added.capabilitiesObj.windowcoverings_set?.value).toBe(1);

    // A quarter open is three quarters closed: 7,500 hundredths of a percent of lift.
    const lift = blind.next((line) => line.event === 'lift' && line.value === 7500);
    expect((await rig.write('window-covering', 'windowcoverings_set', 0.25)).status).toBe(204);
    await expect(lift).resolves.toMatchObject({ value: 7500 });

    blind.send('set windowCovering.currentPositionLiftPercent100ths 10000');
    const closed = await rig.until('window-covering', (d) => d.capabilitiesObj.windowcoverings_set?.value === 0);
    expect(closed.capabilitiesObj.windowcoverings_set?.value).toBe(0);
  });

  it('makes a door lock: unlocked and locked from the hub, and followed when turned at the door', async () => {
    const lock = rig.devices['door-lock'];
    const added = await rig.commission('door-lock');
    expect(added.class).toBe('lock');
    expect(added.capabilities).toEqual(['locked']);
    expect(added.capabilitiesObj.locked?.value).toBe(true);

    // Lock state 2 is unlocked.
    const unlocked = lock.next((line) => line.event === 'lockState' && line.value === 2);
    expect((await rig.write('door-lock', 'locked', false)).status).toBe(204);
    await expect(unlocked).resolves.toMatchObject({ value: 2 });
    expect((await rig.read('door-lock')).capabilitiesObj.locked?.value).toBe(false);

    lock.send('set doorLock.lockState 1');
    const locked = await rig.until('door-lock', (d) => d.capabilitiesObj.locked?.value === true);
    expect(locked.capabilitiesObj.locked?.value).toBe(true);
  });
});
