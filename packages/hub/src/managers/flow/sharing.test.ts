import type { Cloud } from '@hearth/cloud';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCloud } from '../../testing/cloud';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';

const SECRET = 'flow-sharing-test-internal-secret';
const SOCKET = 'homey:app:com.hearth.virtual:virtualsocket';
const LIGHT = 'homey:app:com.hearth.virtual:zigbee';

interface Imported {
  type: string;
  flow: { id: string; name: string; enabled: boolean; broken: boolean; actions: { uri: string }[] };
  unmapped: string[];
}

describe('sharing flows through the cloud', () => {
  let cloud: Cloud;
  let sharer: TestHub;
  let importer: TestHub;
  let alone: TestHub;
  let sharedId: string;
  beforeAll(async () => {
    cloud = await startEmbeddedCloud({ internalClientSecret: SECRET });
    sharer = await startTestHub({ cloudUrl: cloud.url, cloudClientSecret: SECRET });
    importer = await startTestHub({ cloudUrl: cloud.url, cloudClientSecret: SECRET });
    alone = await startTestHub({ cloudUrl: null });
    await Promise.all([untilAppRunning(sharer), untilAppRunning(importer)]);
  });
  afterAll(async () => {
    for (const hub of [sharer, importer, alone]) await hub?.stop();
    await cloud?.stop();
  });

  it('shares a flow with the devices it uses replaced by placeholders, and answers where it is read', async () => {
    const socket = await pairDevice(sharer, SOCKET);
    const light = await pairDevice(sharer, LIGHT);
    const flow = await sharer.call<{ id: string }>('POST', '/flow/flow', {
      name: 'Socket lights the hall',
      trigger: { uri: `homey:device:${socket}`, id: 'onoff_true' },
      conditions: [],
      actions: [{ uri: `homey:device:${light}`, id: 'dim_set', args: { value: 0.7 } }],
    });
    const shared = await sharer.call<{ id: string; url: string; flow: Record<string, unknown> }>(
      'POST',
      `/flow/flow/${flow.body.id}/share`,
      {},
    );
    expect(shared.status).toBe(200);
    expect(shared.body.url).toBe(`http://127.0.0.1/flow/flow/${shared.body.id}`);
    expect(JSON.stringify(shared.body.flow)).not.toContain(socket);
    expect(JSON.stringify(shared.body.flow)).not.toContain(light);
    expect(shared.body.flow).toMatchObject({
      name: 'Socket lights the hall',
      trigger: { uri: 'homey:device:{{device:1}}' },
      actions: [{ uri: 'homey:device:{{device:2}}', args: { value: 0.7 } }],
    });
    sharedId = shared.body.id;
  });

  it('imports a shared flow with its placeholders mapped to its own devices, and it runs', async () => {
    const socket = await pairDevice(importer, SOCKET);
    const light = await pairDevice(importer, LIGHT);
    const imported = await importer.call<Imported>('POST', '/flow/flow/import', {
      id: sharedId,
      map: { '{{device:1}}': socket, '{{device:2}}': light },
    });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ type: 'flow', unmapped: [] });
    expect(imported.body.flow).toMatchObject({ name: 'Socket lights the hall', enabled: true, broken: false });
    await importer.call('PUT', `/devices/device/${socket}/capability/onoff`, { value: false });
    await importer.call('PUT', `/devices/device/${socket}/capability/onoff`, { value: true });
    await expect
      .poll(async () => (await importer.call('GET', `/devices/device/${light}/capability/dim`)).body, { timeout: 5000 })
      .toBe(0.7);
  });

  it('stores a flow with placeholders left open switched off and broken, and says which are open', async () => {
    const imported = await importer.call<Imported>('POST', '/flow/flow/import', { id: sharedId, name: 'Later' });
    expect(imported.body.unmapped.sort()).toEqual(['{{device:1}}', '{{device:2}}']);
    expect(imported.body.flow).toMatchObject({ name: 'Later', enabled: false, broken: true });
    const unknown = await importer.call<{ error: string }>('POST', '/flow/flow/import', { id: 'no-such-flow' });
    expect(unknown.status).toBe(404);
    const refused = await importer.call<{ error: string }>('POST', '/flow/flow/import', { id: sharedId, map: { device: 'x' } });
    expect(refused.status).toBe(400);
  });

  it('exports the flow on a hub without a cloud, and cannot import there', async () => {
    const flow = await alone.call<{ id: string }>('POST', '/flow/flow', {
      name: 'Offline',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
      conditions: [],
      actions: [],
    });
    const exported = await alone.call<{ url?: string; flow: { name: string } }>('POST', `/flow/flow/${flow.body.id}/share`, {});
    expect(exported.body.flow.name).toBe('Offline');
    expect(exported.body.url).toBeUndefined();
    const imported = await alone.call<{ error: string }>('POST', '/flow/flow/import', { id: sharedId });
    expect(imported.status).toBe(503);
  });
});
