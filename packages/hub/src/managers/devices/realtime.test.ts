import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { ack, connectRealtime, type Realtime } from '../../testing/socket';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;

/**
 * The "done when", through real HTTP and socket.io: a device is paired through a pair session, its
 * capability is set and read back, the change arrives as a realtime event and in insights, energy shows its
 * power.
 */
describe('a device end to end over HTTP and socket.io', () => {
  let t: TestHub;
  let realtime: Realtime | undefined;
  let api: Socket;

  beforeAll(async () => {
    t = await startTestHub();
    await until(
      () => t.call<Json>('GET', '/apps/app/com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
    realtime = await connectRealtime(t);
    api = realtime.api;
  });
  afterAll(async () => {
    realtime?.close();
    await t.stop();
  });

  it('pairs, sets over HTTP and over the socket, and delivers capability and device.update events', async () => {
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
      type: 'pair',
      driverId: 'homey:app:com.hearth.virtual:virtualsocket',
    });
    const [candidate] = (await t.call<Json[]>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'list_devices' }))
      .body;
    const device = (await t.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate)).body;

    const deviceEvents: [string, Json][] = [];
    const managerEvents: [string, Json][] = [];
    api.on(`homey:device:${device.id}`, (event: string, data: Json) => deviceEvents.push([event, data]));
    api.on('homey:manager:devices', (event: string, data: Json) => managerEvents.push([event, data]));
    expect(await ack(api, 'subscribe', `homey:device:${device.id}`)).toEqual([null]);
    expect(await ack(api, 'subscribe', 'homey:manager:devices')).toEqual([null]);

    const before = Date.now();
    expect(
      (await t.call('PUT', `/devices/device/${device.id}/capability/onoff`, { value: true, transactionId: 'from-http' })).status,
    ).toBe(204);
    await until(
      () => deviceEvents,
      (e) => e.some(([name, data]) => name === 'capability' && data.transactionId === 'from-http'),
    );
    const capability = deviceEvents.find(([name, data]) => name === 'capability' && data.capabilityId === 'onoff')?.[1];
    expect(capability).toMatchObject({ capabilityId: 'onoff', value: true, transactionId: 'from-http' });
    expect(Number(capability?.transactionTime)).toBeGreaterThanOrEqual(before);
    await until(
      () => managerEvents,
      (e) => e.some(([name]) => name === 'device.update'),
    );
    const update = managerEvents.filter(([name]) => name === 'device.update').at(-1)?.[1] as {
      id: string;
      capabilitiesObj: Record<string, Json>;
    };
    expect(update.id).toBe(device.id);
    expect(update.capabilitiesObj.onoff?.value).toBe(true);

    // The same call over the socket, as cloud-connected clients send it.
    const [error, result] = await ack(api, 'api', {
      uri: 'homey:manager:devices',
      operation: 'setCapabilityValue',
      args: { deviceId: device.id, capabilityId: 'onoff', value: false, transactionId: 'from-socket' },
    });
    expect(error).toBeNull();
    expect(result ?? null).toBeNull();
    await until(
      () => deviceEvents,
      (e) => e.some(([, data]) => data.transactionId === 'from-socket'),
    );
    const [readError, value] = await ack(api, 'api', {
      uri: 'homey:manager:devices',
      operation: 'getCapabilityValue',
      args: { deviceId: device.id, capabilityId: 'onoff' },
    });
    expect(readError).toBeNull();
    expect(value).toBe(false);
    const [badError] = await ack(api, 'api', {
      uri: 'homey:manager:devices',
      operation: 'setCapabilityValue',
      args: { deviceId: device.id, capabilityId: 'onoff', value: 'maybe' },
    });
    expect(badError).toMatchObject({ statusCode: 400 });

    // Insights recorded both changes; energy shows the power the socket drew.
    const entries = await t.call<{ values: { v: boolean }[]; lastValue: boolean }>(
      'GET',
      `/insights/log/homey:device:${device.id}/onoff/entry?resolution=lastHour`,
    );
    expect(entries.body.lastValue).toBe(false);
    const onoffEntries = t.hub.context.db
      .prepare("SELECT COUNT(*) FROM insights_entry JOIN insights_log USING (log) WHERE owner_id = 'onoff' AND owner_uri = ?")
      .pluck()
      .get(`homey:device:${device.id}`);
    expect(onoffEntries).toBe(3);
    await t.call('PUT', `/devices/device/${device.id}/capability/onoff`, { value: true });
    const live = await t.call<{ items: { id: string; values: { W: number } }[] }>('GET', '/energy/live');
    expect(live.body.items.find((i) => i.id === device.id)?.values.W).toBeGreaterThan(50);
  });
});
