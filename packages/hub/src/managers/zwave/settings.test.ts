import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../../testing/hub';
import { startZwaveTestHub, type ZwaveTestHub } from '../../testing/zwave-hub';
import { ZWAVE_DRIVER_ID } from './devices';

type Json = Record<string, unknown>;

const APP = 'com.test.zwaveplug';
const fixture = resolve(import.meta.dirname, 'fixtures', APP);

/**
 * The fixture app's plug driver declares settings with `zwave: { index, size }` (homey-zwavedriver's convention):
 * changing one through the hub's device settings operation sets that configuration parameter on the mock node;
 * a value the node refuses is a 502 and the setting keeps its old value.
 */
describe('Z-Wave device settings are the node’s configuration parameters', () => {
  let hub: ZwaveTestHub;
  let t: TestHub;
  let deviceId: string;
  let nodeId: number;

  const settings = async () => (await t.call<Json>('GET', `/devices/device/${deviceId}`)).body.settings as Json;
  const parameter = (index: number) => hub.network.ask('state', { node: nodeId, key: `Configuration_value_${index}` });

  beforeAll(async () => {
    hub = await startZwaveTestHub(fixture, APP);
    t = hub.t;
    ({ nodeId } = await hub.network.ask<{ nodeId: number }>('include', {
      security: 'none',
      config: true,
      manufacturerId: 0x7e57,
      productTypeId: 1,
      productId: 0x0001,
    }));
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: ZWAVE_DRIVER_ID });
    const added = await t.call<Json & { id: string; driverId: string }>('POST', `/drivers/pairsession/${session.body.id}/emit`, {
      event: 'zwave_include',
    });
    expect(added.body.driverId).toBe(`homey:app:${APP}:plug`);
    deviceId = added.body.id;
  }, 60_000);
  afterAll(async () => {
    await hub?.stop();
  });

  it('a changed setting sets its parameter on the node; a setting without one is only stored', async () => {
    const changed = await t.call<Json>('PUT', `/devices/device/${deviceId}/settings`, { led_level: 9, nickname: 'desk' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ led_level: 9, nickname: 'desk' });
    expect(await parameter(3)).toBe(9);
    expect(await settings()).toMatchObject({ led_level: 9, nickname: 'desk' });
  });

  it('a value the node refuses answers 502 zwave_setting_refused and keeps the old value', async () => {
    // led_level is set first and taken; sensitivity is refused, so led_level goes back on the node too.
    const refused = await t.call<Json>('PUT', `/devices/device/${deviceId}/settings`, { led_level: 4, sensitivity: 15 });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('zwave_setting_refused');
    expect(String(refused.body.error_description)).toContain('sensitivity (parameter 4 = 15)');
    expect(await settings()).toMatchObject({ sensitivity: 1, led_level: 9 });
    expect(await parameter(4)).not.toBe(15);
    expect(await parameter(3)).toBe(9);
    // Within the node's range it is taken.
    expect((await t.call<Json>('PUT', `/devices/device/${deviceId}/settings`, { sensitivity: 7 })).status).toBe(200);
    expect(await parameter(4)).toBe(7);
    expect(await settings()).toMatchObject({ sensitivity: 7 });
  });

  it('a node that is gone leaves the setting as it was, with an error that says so', async () => {
    await hub.network.ask('gone', { node: nodeId });
    const failed = await t.call<Json>('PUT', `/devices/device/${deviceId}/settings`, { led_level: 12 });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe('zwave_setting_refused');
    expect(await settings()).toMatchObject({ led_level: 9 });
    await hub.network.ask('back', { node: nodeId });
  }, 30_000);
});
