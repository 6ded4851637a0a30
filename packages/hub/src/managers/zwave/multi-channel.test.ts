import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../testing/until';
import { startZwaveTestHub, type ZwaveTestHub } from '../../testing/zwave-hub';
import { ZWAVE_DRIVER_ID } from './devices';

type Json = Record<string, unknown>;
type Device = Json & { id: string; capabilities: string[]; capabilitiesObj: Record<string, { value: unknown }> };

const APP = 'com.test.zwaveplug';
const fixture = resolve(import.meta.dirname, 'fixtures', APP);

/**
 * A node with two Binary Switch endpoints (zwave-js's mock, Multi Channel) becomes one device of the generic driver,
 * as the ecosystem's Z-Wave drivers make it: the first endpoint is `onoff`, the second the sub-capability `onoff.2`,
 * each switching its own endpoint through the HTTP API.
 */
describe('a multi-channel Z-Wave node through the generic driver', () => {
  let hub: ZwaveTestHub;
  let device: Device;
  let nodeId: number;

  const endpointState = (endpoint: number) =>
    hub.network.ask('state', { node: nodeId, key: `BinarySwitch_currentValue_${endpoint}` });
  const put = (capability: string, value: boolean) =>
    hub.t.call('PUT', `/devices/device/${device.id}/capability/${capability}`, { value });
  const read = async () => (await hub.t.call<Device>('GET', `/devices/device/${device.id}`)).body;

  beforeAll(async () => {
    hub = await startZwaveTestHub(fixture, APP);
    ({ nodeId } = await hub.network.ask<{ nodeId: number }>('include', {
      security: 'none',
      endpoints: 2,
      manufacturerId: 0x7e58,
      productTypeId: 1,
      productId: 0x0004,
    }));
    const session = await hub.t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: ZWAVE_DRIVER_ID });
    const added = await hub.t.call<Device>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'zwave_include' });
    expect(added.status).toBe(200);
    device = added.body;
  }, 60_000);
  afterAll(async () => {
    await hub?.stop();
  });

  it('is one device with onoff and onoff.2', () => {
    expect([...device.capabilities].sort()).toEqual(['onoff', 'onoff.2']);
    expect(device.class).toBe('socket');
  });

  it('each capability switches its own endpoint, confirmed by that endpoint’s report', async () => {
    expect((await put('onoff.2', true)).status).toBe(204);
    expect(await endpointState(2)).toBe(true);
    expect(await endpointState(1)).not.toBe(true);
    expect((await put('onoff', true)).status).toBe(204);
    expect(await endpointState(1)).toBe(true);
    expect((await put('onoff.2', false)).status).toBe(204);
    expect(await endpointState(2)).toBe(false);
    expect(await endpointState(1)).toBe(true);
    const both = await until(
      read,
      (d) => d.capabilitiesObj.onoff?.value === true && d.capabilitiesObj['onoff.2']?.value === false,
      5_000,
    );
    expect(both.capabilitiesObj).toMatchObject({ onoff: { value: true }, 'onoff.2': { value: false } });
  });
});
