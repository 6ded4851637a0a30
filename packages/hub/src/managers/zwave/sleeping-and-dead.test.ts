import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../../testing/hub';
import { until } from '../../testing/until';
import { startZwaveTestHub } from '../../testing/zwave-hub';
import type { ZwaveMockNetwork } from '../../testing/zwave-mock';
import { DEAD_NODE_MESSAGE, ZWAVE_DRIVER_ID } from './devices';

type Json = Record<string, unknown>;
type Device = Json & { id: string; available: boolean; unavailableMessage: string | null };
type Node = Json & { nodeId: number; status: string };

const APP = 'com.test.zwaveplug';
const fixture = resolve(import.meta.dirname, 'fixtures', APP);
/** Ids no installed app claims: the generic driver takes the node. */
const UNCLAIMED = { manufacturerId: 0x7e58, productTypeId: 0x0001, productId: 0x0003 };
/** The fixture app's plug. */
const PLUG = { manufacturerId: 0x7e57, productTypeId: 1, productId: 0x0001 };

/**
 * Sleeping and dead nodes on zwave-js's mock network, through the HTTP API and an app on the public SDK: a write
 * to a sleeping node waits for it to wake (the device stays available), a node that stops answering is dead and
 * its device unavailable until it is heard again, and an app's ZwaveNode emits `online` as its node dies and returns.
 */
describe('Z-Wave nodes that sleep, nodes that die, and failed nodes removed', () => {
  let network: ZwaveMockNetwork;
  let t: TestHub;

  const device = async (id: string) => (await t.call<Device>('GET', `/devices/device/${id}`)).body;
  const node = async (nodeId: number) =>
    (await t.call<{ nodes: Node[] }>('GET', '/zwave/state')).body.nodes.find((n) => n.nodeId === nodeId);
  const include = async (request: Json) => {
    const { nodeId } = await network.ask<{ nodeId: number }>('include', { security: 'none', ...request });
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: ZWAVE_DRIVER_ID });
    const added = await t.call<Device>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'zwave_include' });
    expect(added.status).toBe(200);
    return { nodeId, deviceId: added.body.id };
  };
  const std = async (sessionId: string) =>
    (await t.call<{ line: string }[]>('GET', `/devkit/std/${sessionId}`)).body.map((l) => l.line).join('\n');

  let sessionId: string;
  beforeAll(async () => {
    ({ network, t, sessionId } = await startZwaveTestHub(fixture, APP));
  }, 50_000);
  afterAll(async () => {
    await t?.stop();
    await network?.stop();
  });

  it('a write to a sleeping node waits until it wakes, and the device stays available meanwhile', async () => {
    const { nodeId, deviceId } = await include({ sleeping: true, ...UNCLAIMED });
    // After its interview zwave-js sends it back to sleep.
    expect(
      (
        await until(
          () => node(nodeId),
          (n) => n?.status === 'asleep',
          10_000,
        )
      )?.status,
    ).toBe('asleep');
    let answered: number | null = null;
    const writing = t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true }).then((r) => {
      answered = r.status;
      return r;
    });
    // Asleep is no fault: the device stays available, and nothing reached the node yet.
    await new Promise((done) => setTimeout(done, 500));
    expect(answered).toBeNull();
    expect(await device(deviceId)).toMatchObject({ available: true, unavailableMessage: null });
    expect(await network.ask('state', { node: nodeId, key: 'BinarySwitch_currentValue' })).not.toBe(true);
    await network.ask('wake', { node: nodeId });
    expect((await writing).status).toBe(204);
    expect(await network.ask('state', { node: nodeId, key: 'BinarySwitch_currentValue' })).toBe(true);
    expect((await device(deviceId)).capabilitiesObj).toMatchObject({ onoff: { value: true } });
  }, 30_000);

  it('a node that stops answering is dead and its device unavailable with the reason, until it is heard again', async () => {
    const { nodeId, deviceId } = await include(UNCLAIMED);
    await network.ask('gone', { node: nodeId });
    const refused = await t.call<Json>('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('unavailable');
    const dead = await until(
      () => device(deviceId),
      (d) => !d.available,
      15_000,
    );
    expect(dead).toMatchObject({ available: false, unavailableMessage: DEAD_NODE_MESSAGE });
    expect((await node(nodeId))?.status).toBe('dead');
    await network.ask('back', { node: nodeId });
    const back = await until(
      () => device(deviceId),
      (d) => d.available,
      10_000,
    );
    expect(back).toMatchObject({ available: true, unavailableMessage: null });
    expect((await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true })).status).toBe(204);
    expect(await network.ask('state', { node: nodeId, key: 'BinarySwitch_currentValue' })).toBe(true);
  }, 40_000);

  it('an app’s ZwaveNode emits online false when its node dies and true when it is back; the app sets availability', async () => {
    const { nodeId, deviceId } = await include({ meter: true, ...PLUG });
    expect((await device(deviceId)).driverId).toBe(`homey:app:${APP}:plug`);
    await until(
      () => std(sessionId),
      (text) => text.includes('unsupported command'),
      10_000,
    );
    await network.ask('gone', { node: nodeId });
    expect((await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true })).status).not.toBe(204);
    const dead = await until(
      () => device(deviceId),
      (d) => !d.available,
      15_000,
    );
    expect(dead.unavailableMessage).toBe('The plug does not answer');
    expect(await std(sessionId)).toContain('online false');
    await network.ask('back', { node: nodeId });
    expect(
      await until(
        () => device(deviceId),
        (d) => d.available,
        10_000,
      ),
    ).toMatchObject({ available: true, unavailableMessage: null });
    expect(await std(sessionId)).toContain('online true');
  }, 40_000);

  it('removing a failed node from its device: a node that answers is zwave_node_not_failed; a silent one goes, with its device', async () => {
    const { nodeId, deviceId } = await include(UNCLAIMED);
    const removeFailed = (id: string) => t.call<Json>('POST', `/zwave/device/${id}/remove-failed`);
    const answering = await removeFailed(deviceId);
    expect(answering.status).toBe(409);
    expect(answering.body.error).toBe('zwave_node_not_failed');
    expect((await device(deviceId)).id).toBe(deviceId);
    expect((await removeFailed('no-such-device')).status).toBe(404);
    await network.ask('gone', { node: nodeId });
    const removed = await removeFailed(deviceId);
    expect(removed.body).toMatchObject({ nodeId });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ nodeId, removedDeviceIds: [deviceId] });
    expect((await t.call('GET', `/devices/device/${deviceId}`)).status).toBe(404);
    expect(await node(nodeId)).toBeUndefined();
  }, 40_000);
});
