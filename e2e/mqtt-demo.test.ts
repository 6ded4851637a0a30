import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSystem, startSystem } from './system';

type Json = Record<string, unknown>;
type Device = { id: string; name: string; driverId: string; capabilitiesObj: Record<string, { value: unknown }> };

/** Waits until `read` answers what `ok` accepts (the broker's retained messages reach the hub in their time). */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `npm start`'s demo broker: started as `npm start` starts it, with its stand-ins for zigbee2mqtt and an ESPHome
 * sensor; the hub "Home" bridges it out of the box, the other demo hubs do not.
 */
describe('the demo MQTT broker of npm start', () => {
  let system: RunningSystem;
  const get = async <T>(hub: RunningSystem['hubs'][number], path: string, init: RequestInit = {}) => {
    const response = await fetch(`${hub.url}/api/manager${path}`, {
      ...init,
      headers: { authorization: `Bearer ${hub.ownerToken}`, 'content-type': 'application/json' },
    });
    return { status: response.status, body: (response.status === 204 ? null : await response.json()) as T };
  };
  const home = () => system.hubs.find((h) => h.name === 'Home') as RunningSystem['hubs'][number];
  const bridged = async () =>
    Object.values((await get<Record<string, Device>>(home(), '/devices/device')).body).filter((d) =>
      d.driverId.startsWith('homey:app:com.hearth.mqtt:'),
    );

  beforeAll(async () => {
    system = await startSystem();
  }, 180_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('says where the broker is and which one runs, in the output and in running.json', () => {
    expect(system.mqttUrl).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(system.mqttBroker).toMatch(/^(Mosquitto \d|aedes)/);
    expect(system.output()).toContain(`MQTT broker    ${system.mqttUrl}  (${system.mqttBroker};`);
  });

  it('the hub Home is connected to it, and the stand-ins’ Zigbee and discovery devices exist with their values', async () => {
    const state = await until(
      () => get<Json>(home(), '/mqtt/state'),
      (s) => s.body.state === 'connected',
    );
    expect(state.body).toMatchObject({ state: 'connected', url: system.mqttUrl, source: 'environment' });
    const devices = await until(bridged, (list) => list.length >= 5);
    expect(devices.map((d) => d.name).sort()).toEqual(
      ['Balcony sensor', 'Bedside remote', 'Front door', 'Kettle plug', 'Living room/Lamp'].sort(),
    );
    const lamp = devices.find((d) => d.name === 'Living room/Lamp') as Device;
    expect(lamp.capabilitiesObj.onoff?.value).toBe(true);
    const balcony = devices.find((d) => d.name === 'Balcony sensor') as Device;
    expect(balcony.capabilitiesObj.measure_temperature?.value).toBe(18.6);
    // A write reaches the zigbee2mqtt stand-in, whose state answer confirms it.
    expect(
      (await get(home(), `/devices/device/${lamp.id}/capability/onoff`, { method: 'PUT', body: '{"value":false}' })).status,
    ).toBe(204);
    const after = await get<Device>(home(), `/devices/device/${lamp.id}`);
    expect(after.body.capabilitiesObj.onoff?.value).toBe(false);
  });

  it('the other demo hubs bridge no broker', async () => {
    for (const hub of system.hubs.filter((h) => h.name !== 'Home'))
      expect((await get<Json>(hub, '/mqtt/state')).body).toMatchObject({ state: 'disabled', url: null });
  });
});
