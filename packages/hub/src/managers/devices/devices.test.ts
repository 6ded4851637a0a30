import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;
type Device = Json & { id: string; capabilitiesObj: Record<string, Json>; settings: Json };

const SOCKET = 'homey:app:com.hearth.virtual:virtualsocket';

describe('drivers, pairing and devices over HTTP', () => {
  let t: TestHub;
  const events: HubEvent[] = [];
  let socket: Device;

  /** Pairs one device of `driverId` through a pair session, as a client's pairing views would. */
  async function pair(driverId: string, event = 'list_devices', data?: unknown): Promise<Device> {
    const session = await t.call<Json & { id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId });
    expect(session.status).toBe(200);
    const found = await t.call<Json | Json[]>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event, data });
    expect(found.status).toBe(200);
    const candidate = (Array.isArray(found.body) ? found.body[0] : found.body) as Json;
    const device = await t.call<Device>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate);
    expect(device.status).toBe(200);
    expect((await t.call('DELETE', `/drivers/pairsession/${session.body.id}`)).status).toBe(204);
    return device.body;
  }

  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((event) => events.push(event));
    await until(
      () => t.call<Json>('GET', '/apps/app/com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists the virtual drivers of the seed, one per radio among them', async () => {
    const drivers = await t.call<Record<string, Json>>('GET', '/drivers/driver');
    // The built-in MQTT bridge's drivers own the devices zigbee2mqtt describes, those HA discovery announces and the
    // Homie devices; the rest are the virtual app's.
    expect(Object.keys(drivers.body).filter((id) => !id.startsWith('homey:app:com.hearth.virtual:'))).toEqual([
      'homey:app:com.hearth.mqtt:zigbee2mqtt',
      'homey:app:com.hearth.mqtt:homeassistant',
      'homey:app:com.hearth.mqtt:homie',
    ]);
    const ids = Object.keys(drivers.body)
      .filter((id) => id.startsWith('homey:app:com.hearth.virtual:'))
      .map((id) => id.split(':').pop());
    expect(ids).toEqual([
      'socket',
      'virtualsocket',
      'virtualbutton',
      'virtualipcamera',
      'zwave',
      'zigbee',
      'infrared',
      'bridge',
      'matter',
      'matter_clusters',
      'zwavenode',
      'group',
    ]);
    const driver = await t.call<Json>('GET', `/drivers/driver/${SOCKET}`);
    expect(driver.body).toMatchObject({
      id: SOCKET,
      ownerUri: 'homey:app:com.hearth.virtual',
      class: 'socket',
      ready: true,
      connectivity: ['virtual'],
    });
    expect(driver.body).not.toHaveProperty('uri');
    expect((await t.call('GET', '/drivers/driver/homey:app:com.hearth.virtual:nope')).status).toBe(404);
  });

  it('pairs a virtual socket through a pair session and serves every Device field', async () => {
    socket = await pair(SOCKET);
    const rootZone = t.hub.context.db.prepare('SELECT id FROM zone WHERE parent IS NULL').pluck().get();
    expect(socket).toMatchObject({
      name: 'Virtual socket',
      driverId: SOCKET,
      ownerUri: 'homey:app:com.hearth.virtual',
      zone: rootZone,
      class: 'socket',
      available: true,
      ready: true,
    });
    const fields = [
      'id',
      'name',
      'note',
      'driverUri',
      'driverId',
      'zone',
      'data',
      'icon',
      'iconObj',
      'iconOverride',
      'settings',
      'settingsObj',
      'class',
      'energy',
      'energyObj',
      'virtualClass',
      'ui',
      'uiIndicator',
      'capabilities',
      'capabilitiesObj',
      'capabilitiesOptions',
      'flags',
      'ready',
      'available',
      'repair',
      'unpair',
      'unavailableMessage',
      'images',
      'insights',
      'color',
    ];
    for (const field of fields) expect(socket, field).toHaveProperty(field);
    expect(socket).not.toHaveProperty('uri');
    expect(socket.capabilitiesObj.onoff).toMatchObject({
      id: 'onoff',
      type: 'boolean',
      value: false,
      getable: true,
      setable: true,
    });
    expect(socket.capabilitiesObj.measure_power).toMatchObject({ units: 'W', setable: false });
    expect(typeof socket.capabilitiesObj.onoff?.lastUpdated).toBe('string');
    expect(socket.settings).toEqual({ load: 60 });
    expect(events.some((e) => e.uri === 'homey:manager:devices' && e.event === 'device.create')).toBe(true);
    const list = await t.call<Record<string, Device>>('GET', '/devices/device');
    expect(Object.keys(list.body)).toEqual([socket.id]);
  });

  it('sets a capability, reads it back, and publishes capability and device.update events', async () => {
    events.length = 0;
    const put = await t.call('PUT', `/devices/device/${socket.id}/capability/onoff`, { value: true, transactionId: 'tx-1' });
    expect(put.status).toBe(204);
    expect((await t.call('GET', `/devices/device/${socket.id}/capability/onoff`)).body).toBe(true);
    const capability = events.find((e) => e.uri === `homey:device:${socket.id}` && e.event === 'capability');
    expect(capability?.data).toMatchObject({ capabilityId: 'onoff', value: true, transactionId: 'tx-1' });
    expect(typeof (capability!.data as Json).transactionTime).toBe('number');
    const update = events.find((e) => e.uri === 'homey:manager:devices' && e.event === 'device.update');
    expect((update!.data as Device).capabilitiesObj.onoff?.value).toBe(true);
    // The socket reacts: it draws its load.
    const device = await t.call<Device>('GET', `/devices/device/${socket.id}`);
    expect(device.body.capabilitiesObj.measure_power?.value).toBeGreaterThan(50);
  });

  it('refuses bad values with a 400 naming the field, and never stores them', async () => {
    const bad = [
      ['onoff', { value: 'yes' }],
      ['onoff', { value: 1 }],
      ['measure_power', { value: 10 }],
    ] as const;
    for (const [capabilityId, body] of bad) {
      const answer = await t.call<Json>('PUT', `/devices/device/${socket.id}/capability/${capabilityId}`, body);
      expect(answer.status, capabilityId).toBe(400);
      expect(String(answer.body.error_description)).toMatch(/value|capabilityId/);
    }
    expect((await t.call('PUT', `/devices/device/${socket.id}/capability/onoff`, {})).body).toMatchObject({
      error: 'missing_parameter',
    });
    expect((await t.call('PUT', `/devices/device/${socket.id}/capability/dim`, { value: 0.5 })).status).toBe(404);
    expect((await t.call('PUT', '/devices/device/nope/capability/onoff', { value: true })).status).toBe(404);
    expect((await t.call('GET', `/devices/device/${socket.id}/capability/onoff`)).body).toBe(true);
  });

  it('validates ranges, steps and enum values of other capabilities', async () => {
    const thermostat = await pair('homey:app:com.hearth.virtual:matter', 'matter_code', { code: '3497-011-2332' });
    const base = `/devices/device/${thermostat.id}/capability`;
    expect((await t.call('PUT', `${base}/target_temperature`, { value: 50 })).status).toBe(400);
    expect((await t.call('PUT', `${base}/target_temperature`, { value: 21.3 })).status).toBe(400);
    expect((await t.call('PUT', `${base}/target_temperature`, { value: 21.5 })).status).toBe(204);
    expect((await t.call<Json>('PUT', `${base}/thermostat_mode`, { value: 'party' })).body.error_description).toContain(
      'auto, heat, cool, off',
    );
    expect((await t.call('PUT', `${base}/thermostat_mode`, { value: 'cool' })).status).toBe(204);
    expect((await t.call('GET', `${base}/target_temperature`)).body).toBe(21.5);
    const lights = await pair('homey:app:com.hearth.virtual:zigbee', 'zigbee_join');
    expect((await t.call('PUT', `/devices/device/${lights.id}/capability/dim`, { value: 0.4 })).status).toBe(204);
    expect((await t.call('GET', `/devices/device/${lights.id}/capability/onoff`)).body).toBe(true);
    expect(
      (await t.call('POST', '/drivers/pairsession', { type: 'pair', driverId: 'homey:app:com.hearth.virtual:matter' })).status,
    ).toBe(200);
  });

  it('announces a button press without storing it', async () => {
    events.length = 0;
    const button = await pair('homey:app:com.hearth.virtual:virtualbutton');
    expect((await t.call('PUT', `/devices/device/${button.id}/capability/button`, { value: true })).status).toBe(204);
    expect(events.some((e) => e.event === 'capability' && (e.data as Json).capabilityId === 'button')).toBe(true);
    expect((await t.call('GET', `/devices/device/${button.id}/capability/button`)).body).toBe(null);
  });

  it('updates only the updatable fields', async () => {
    const renamed = await t.call<Device>('PUT', `/devices/device/${socket.id}`, {
      name: ' Coffee machine ',
      note: 'kitchen counter',
      iconOverride: 'coffee',
    });
    expect(renamed.body).toMatchObject({ name: 'Coffee machine', note: 'kitchen counter', iconOverride: 'coffee' });
    const classChange = await t.call<Json>('PUT', `/devices/device/${socket.id}`, { class: 'light' });
    expect(classChange.status).toBe(400);
    expect(classChange.body.error_description).toContain('device.class');
    // Sending a non-updatable field back unchanged is harmless.
    expect((await t.call('PUT', `/devices/device/${socket.id}`, { class: 'socket', name: 'Coffee' })).status).toBe(200);
    expect((await t.call<Json>('PUT', `/devices/device/${socket.id}`, { zone: 'nowhere' })).body.error_description).toContain(
      'device.zone',
    );
    expect((await t.call<Json>('PUT', `/devices/device/${socket.id}`, { name: '' })).status).toBe(400);
  });

  it('serves settings_obj and checks settings against the driver', async () => {
    const obj = await t.call<Json[]>('GET', `/devices/device/${socket.id}/settings_obj`);
    expect(obj.body).toEqual([expect.objectContaining({ id: 'load', type: 'number', label: 'Load when on (W)', value: 60 })]);
    expect((await t.call<Json>('PUT', `/devices/device/${socket.id}/settings`, { load: 100 })).body).toEqual({ load: 100 });
    expect(
      (await t.call<Json>('PUT', `/devices/device/${socket.id}/settings`, { load: 99999 })).body.error_description,
    ).toContain('settings.load');
    expect((await t.call<Json>('PUT', `/devices/device/${socket.id}/settings`, { other: 1 })).body.error_description).toContain(
      'settings.other',
    );
  });

  it('serves the capability catalogue', async () => {
    const all = await t.call<Record<string, Json>>('GET', '/devices/capability');
    expect(all.body.dim).toMatchObject({ id: 'dim', type: 'number', min: 0, max: 1, step: 0.01, getable: true, setable: true });
    expect(all.body.alarm_motion).toMatchObject({ type: 'boolean', setable: false });
    expect((await t.call<Json>('GET', '/devices/capability/homey:manager:devices/onoff')).body).toMatchObject({ id: 'onoff' });
    expect((await t.call<Json>('GET', '/devices/capability/homey:app:com.hearth.virtual/onoff')).status).toBe(200);
    expect((await t.call('GET', '/devices/capability/homey:manager:devices/nope')).status).toBe(404);
    // The whole system catalogue of the ecosystem (homey-lib's), not only the capabilities Hearth had its own entry for.
    const ecosystem = Object.keys(createRequire(import.meta.url)('homey-lib').getCapabilities() as Record<string, unknown>);
    expect(ecosystem.length).toBeGreaterThan(180);
    expect(ecosystem.filter((id) => !all.body[id])).toEqual([]);
    expect(all.body.meter_gas).toMatchObject({ type: 'number', units: 'm³', min: 0, decimals: 3, setable: false });
    expect(all.body.vacuumcleaner_state).toMatchObject({ type: 'enum', setable: true });
    expect((all.body.vacuumcleaner_state.values as Json[]).map((v) => v.id)).toContain('docked');
  });

  it('makes devices unavailable while their app is stopped', async () => {
    await t.call('PUT', '/apps/app/com.hearth.virtual/disable');
    const device = await t.call<Device>('GET', `/devices/device/${socket.id}`);
    expect(device.body).toMatchObject({ available: false });
    expect(String(device.body.unavailableMessage)).toContain('not running');
    expect((await t.call('PUT', `/devices/device/${socket.id}/capability/onoff`, { value: false })).status).toBe(503);
    await t.call('PUT', '/apps/app/com.hearth.virtual/enable');
    await until(
      () => t.call<Device>('GET', `/devices/device/${socket.id}`),
      (d) => d.body.available === true,
    );
  });

  it('keeps pair sessions alive with heartbeats, expires them without, and keeps them per user', async () => {
    const pairing = t.hub.services.pairing;
    pairing.ttlMs = 300;
    const session = await t.call<Json & { id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: SOCKET });
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.call('POST', `/drivers/pairsession/${session.body.id}/heartbeat`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.call('GET', `/drivers/pairsession/${session.body.id}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 350));
    expect((await t.call('GET', `/drivers/pairsession/${session.body.id}`)).status).toBe(404);
    pairing.ttlMs = 60_000;
    const other = await t.call<Json & { id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: SOCKET });
    const { users, sessions } = t.hub.context;
    const ownerId = users.owner()!.id;
    const second = sessions.create({ type: 'PAT', userId: ownerId, name: 'second', scopes: null }).token;
    // Same user, other token: still theirs.
    expect((await t.call('GET', `/drivers/pairsession/${other.body.id}`, undefined, second)).status).toBe(200);
    expect((await t.call('POST', '/drivers/pairsession', { type: 'pair', driverId: 'nope' })).status).toBe(400);
    expect((await t.call('POST', '/drivers/pairsession', { driverId: SOCKET })).body).toMatchObject({
      error: 'missing_parameter',
    });
    expect(
      (await t.call<Json>('POST', `/drivers/pairsession/${other.body.id}/emit`, { event: 'dance' })).body.error_description,
    ).toContain('event');
    expect(
      (await t.call('POST', `/drivers/pairsession/${other.body.id}/callback`, { callbackId: 'cb1', data: { ok: true } })).status,
    ).toBe(204);
  });

  it('refuses a device paired twice and unpairs through an unpair session', async () => {
    const session = await t.call<Json & { id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: SOCKET });
    const again = await t.call('POST', `/drivers/pairsession/${session.body.id}/device`, { name: 'Dup', data: socket.data });
    expect(again.status).toBe(409);
    const unpair = await t.call<Json & { id: string }>('POST', '/drivers/pairsession', {
      type: 'unpair',
      driverId: SOCKET,
      deviceId: socket.id,
    });
    expect(unpair.status).toBe(200);
    expect(unpair.body).toMatchObject({ type: 'unpair', deviceId: socket.id });
    events.length = 0;
    expect((await t.call('DELETE', `/drivers/pairsession/${unpair.body.id}/device`)).status).toBe(204);
    expect((await t.call('GET', `/devices/device/${socket.id}`)).status).toBe(404);
    expect(events.some((e) => e.event === 'device.delete' && (e.data as Json).id === socket.id)).toBe(true);
  });

  it('deletes devices, and removes an app’s devices when it is uninstalled', async () => {
    await t.call('POST', '/apps/store', { id: 'com.lumenco.lights' });
    await until(
      () => t.call<Json>('GET', '/apps/app/com.lumenco.lights'),
      (a) => a.body.state === 'running',
    );
    const bulb = await pair('homey:app:com.lumenco.lights:bulb-e27', 'zigbee_join');
    expect(bulb.color).toBe('#1E6FD9');
    expect((await t.call('DELETE', '/apps/app/com.lumenco.lights')).status).toBe(204);
    expect((await t.call('GET', `/devices/device/${bulb.id}`)).status).toBe(404);
    const devices = await t.call<Record<string, Device>>('GET', '/devices/device');
    const any = Object.values(devices.body)[0] as Device;
    expect((await t.call('DELETE', `/devices/device/${any.id}`)).status).toBe(204);
    expect((await t.call('DELETE', `/devices/device/${any.id}`)).status).toBe(404);
  });
});

describe('moods set device states through the device runtime', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
    await until(
      () => t.call<Json>('GET', '/apps/app/com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
  });
  afterAll(async () => {
    await t.stop();
  });

  it('applies each device state of a mood, skipping what cannot apply', async () => {
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
      type: 'pair',
      driverId: 'homey:app:com.hearth.virtual:zigbee',
    });
    const found = await t.call<Json>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'zigbee_join' });
    const light = await t.call<Device>('POST', `/drivers/pairsession/${session.body.id}/device`, found.body);
    const mood = await t.call<{ id: string }>('POST', '/moods/mood', {
      name: 'Evening',
      devices: { [light.body.id]: { onoff: true, dim: 0.3, light_temperature: 7 } },
    });
    expect(mood.status).toBe(200);
    expect((await t.call('POST', `/moods/mood/${mood.body.id}/set`)).status).toBe(200);
    const after = await t.call<Device>('GET', `/devices/device/${light.body.id}`);
    expect(after.body.capabilitiesObj.onoff?.value).toBe(true);
    expect(after.body.capabilitiesObj.dim?.value).toBe(0.3);
    expect(after.body.capabilitiesObj.light_temperature?.value).toBe(0.5);
  });
});
