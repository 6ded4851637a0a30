import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import type { Answer, TestHub } from '../../testing/hub';
import { until } from '../../testing/until';
import { startZwaveTestHub } from '../../testing/zwave-hub';
import type { ZwaveMockNetwork } from '../../testing/zwave-mock';
import { ZWAVE_DRIVER_ID } from './devices';

type Json = Record<string, unknown>;
type Device = Json & { id: string; driverId: string; data: { id: string; zwave: { nodeId: number } } };
type Session = Json & { id: string; radio: (Json & { stage?: string; dsk?: string }) | null };
type Node = Json & { nodeId: number; securityClass: number | null };

const APP = 'com.test.zwaveplug';
const fixture = resolve(import.meta.dirname, 'fixtures', APP);
/** zwave-js's numbers of the security classes a node ends up with. */
const S2_AUTHENTICATED = 1;
const S0_LEGACY = 7;
/**
 * Ids no installed app claims (the fixture app's plug is 0x7e57 / 1 or 259 / 1); made up, so that no device file of
 * zwave-js's database matches them (a real device's file has zwave-js ask for parameters the mock node lacks).
 */
const UNCLAIMED = { manufacturerId: 0x7e58, productTypeId: 0x0001, productId: 0x0002 };

describe('Z-Wave inclusion and exclusion through the pair-session API, on zwave-js’s mock controller', () => {
  let network: ZwaveMockNetwork;
  let t: TestHub;
  const clock = new FakeClock(Date.now());

  const openSession = async (driverId = ZWAVE_DRIVER_ID, type = 'pair', deviceId?: string) => {
    const session = await t.call<Session>('POST', '/drivers/pairsession', { type, driverId, deviceId });
    expect(session.status).toBe(200);
    return session.body.id;
  };
  const emit = <T = Json>(session: string, event: string, data?: unknown) =>
    t.call<T>('POST', `/drivers/pairsession/${session}/emit`, { event, data });
  /** The pair session's Z-Wave progress once it reached `stage` (read over HTTP, as a pair view polling would). */
  const untilStage = async (session: string, stage: string) => {
    const read = await until(
      () => t.call<Session>('GET', `/drivers/pairsession/${session}`),
      (s) => s.body.radio?.stage === stage,
      20_000,
    );
    expect(read.body.radio?.stage).toBe(stage);
    return read.body.radio!;
  };
  const node = async (nodeId: number) =>
    (await t.call<{ nodes: Node[] }>('GET', '/zwave/state')).body.nodes.find((n) => n.nodeId === nodeId);

  beforeAll(async () => {
    ({ network, t } = await startZwaveTestHub(fixture, APP, { clock }));
  }, 50_000);
  afterAll(async () => {
    await t?.stop();
    await network?.stop();
  });

  let switchId: string;

  it('includes an S2 device with the PIN the pair view enters, and its device switches it over S2', async () => {
    const { nodeId } = await network.ask<{ nodeId: number }>('include', { security: 'S2', ...UNCLAIMED });
    const session = await openSession();
    const including = emit<Device>(session, 'zwave_include', { security: 'S2' });
    // The DSK is shown without its first five digits: those are the PIN on the device's label.
    const asked = await untilStage(session, 'pin');
    expect(asked.dsk).toMatch(/^xxxxx(-\d{5}){7}$/);
    const pin = await network.ask<string>('pin');
    expect(asked.dsk?.slice(5)).toBe((await network.ask<string>('dsk')).slice(5));
    expect((await emit(session, 'zwave_s2_pin', { pin })).body).toBe(true);
    const added = await including;
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ driverId: ZWAVE_DRIVER_ID, data: { zwave: { nodeId } }, class: 'socket' });
    expect(added.body.capabilities).toEqual(['onoff']);
    switchId = added.body.id;
    expect((await t.call<Session>('GET', `/drivers/pairsession/${session}`)).body).toMatchObject({
      devices: [switchId],
      radio: { stage: 'done', nodeId },
    });
    expect(await node(nodeId)).toMatchObject({ interviewStage: 'Complete', securityClass: S2_AUTHENTICATED });
    // Its commands go encrypted with the hub's S2 keys, and the node's report confirms them.
    expect((await t.call('PUT', `/devices/device/${switchId}/capability/onoff`, { value: true })).status).toBe(204);
    expect(await network.ask('state', { node: nodeId, key: 'BinarySwitch_currentValue' })).toBe(true);
    expect((await t.call<Device>('GET', `/devices/device/${switchId}`)).body.capabilitiesObj).toMatchObject({
      onoff: { value: true },
    });
  });

  it('a wrong S2 PIN is a 400 zwave_s2_pin_wrong that says the node joined without security', async () => {
    const { nodeId } = await network.ask<{ nodeId: number }>('include', { security: 'S2', ...UNCLAIMED });
    const session = await openSession();
    const including = emit<Json>(session, 'zwave_include', { security: 'S2' });
    await untilStage(session, 'pin');
    const pin = await network.ask<string>('pin');
    const wrong = String((Number(pin) + 1) % 65536).padStart(5, '0');
    expect((await emit(session, 'zwave_s2_pin', { pin: 'one' })).status).toBe(400);
    expect((await emit(session, 'zwave_s2_pin', { pin: wrong })).body).toBe(true);
    const refused = await including;
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('zwave_s2_pin_wrong');
    expect(String(refused.body.error_description)).toContain(`Node ${nodeId} joined the network without security`);
    expect((await t.call<Session>('GET', `/drivers/pairsession/${session}`)).body.radio).toMatchObject({
      stage: 'failed',
      error: 'zwave_s2_pin_wrong',
    });
    // A PIN nobody asked for is refused too.
    expect((await emit<Json>(session, 'zwave_s2_pin', { pin })).body.error).toBe('conflict');
  });

  it('a node whose ids an installed app’s driver claims becomes that driver’s device (S0)', async () => {
    const { nodeId } = await network.ask<{ nodeId: number }>('include', {
      security: 'S0',
      meter: true,
      manufacturerId: 0x7e57,
      productTypeId: 259,
      productId: 0x0001,
    });
    // The session is the generic driver's; the node's ids decide.
    const session = await openSession();
    const added = await emit<Device>(session, 'zwave_include', { security: 'S0' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      driverId: `homey:app:${APP}:plug`,
      name: 'Wall plug',
      data: { zwave: { nodeId } },
    });
    expect(await node(nodeId)).toMatchObject({ securityClass: S0_LEGACY, manufacturerId: 0x7e57, productId: 0x0001 });
  });

  it('the virtual app’s stand-in driver includes for real when the hub has a controller', async () => {
    const { nodeId } = await network.ask<{ nodeId: number }>('include', { security: 'none', ...UNCLAIMED });
    const session = await openSession('homey:app:com.hearth.virtual:zwave');
    const added = await emit<Device>(session, 'zwave_include', { security: 'none' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ driverId: ZWAVE_DRIVER_ID, data: { zwave: { nodeId } } });
    expect(added.body.data).not.toHaveProperty('standIn');
  });

  it('one join at a time: a second is zwave_busy; no device joining runs out on the hub clock as zwave_timeout, or ends with its session', async () => {
    const first = await openSession();
    const waiting = emit<Json>(first, 'zwave_include', { timeout: 30 });
    await untilStage(first, 'waiting');
    const busy = await emit<Json>(await openSession(), 'zwave_include');
    expect(busy.status).toBe(409);
    expect(busy.body.error).toBe('zwave_busy');
    expect((await emit<Json>(first, 'zwave_include', { timeout: 0 })).status).toBe(400);
    expect((await emit<Json>(first, 'zwave_include', { security: 'S3' })).status).toBe(400);
    await clock.advance(30_000);
    const timedOut: Answer<Json> = await waiting;
    expect(timedOut.status).toBe(408);
    expect(timedOut.body.error).toBe('zwave_timeout');
    // Closing the pair session ends the wait at once, and frees the controller.
    const closing = await openSession();
    const abandoned = emit<Json>(closing, 'zwave_include');
    await untilStage(closing, 'waiting');
    expect((await t.call('DELETE', `/drivers/pairsession/${closing}`)).status).toBe(204);
    expect((await abandoned).body).toMatchObject({ error: 'conflict' });
    // The controller is free again.
    const { nodeId } = await network.ask<{ nodeId: number }>('include', { security: 'none', ...UNCLAIMED });
    const added = await emit<Device>(await openSession(), 'zwave_include', { security: 'none' });
    expect(added.body).toMatchObject({ data: { zwave: { nodeId } } });
  });

  it('exclusion from the device’s unpair session removes the node and its device', async () => {
    const nodeId = (await t.call<Device>('GET', `/devices/device/${switchId}`)).body.data.zwave.nodeId;
    await network.ask('exclude', { node: nodeId });
    const session = await openSession(ZWAVE_DRIVER_ID, 'unpair', switchId);
    const excluded = await emit<Json>(session, 'zwave_exclude');
    expect(excluded.status).toBe(200);
    expect(excluded.body).toEqual({ nodeId, removedDeviceIds: [switchId] });
    expect((await t.call('GET', `/devices/device/${switchId}`)).status).toBe(404);
    expect(await node(nodeId)).toBeUndefined();
    // Nobody leaving runs out as a timeout.
    const other = await openSession();
    const nobody = emit<Json>(other, 'zwave_exclude', { timeout: 5 });
    await untilStage(other, 'waiting');
    await clock.advance(5_000);
    expect((await nobody).body.error).toBe('zwave_timeout');
  });
});
