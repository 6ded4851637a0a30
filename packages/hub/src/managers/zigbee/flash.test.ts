import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { privateHandlers } from '../../testing/private';
import { zigbeeManager } from '.';

type Json = Record<string, unknown>;

describe('The simulated Zigbee coordinator, over HTTP', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('Zigbee: flashing the coordinator firmware (private) keeps its network', async () => {
    expect((await t.call('PUT', '/zigbee/flash-firmware')).status).toBe(403);
    const before = (await t.call<Json>('GET', '/zigbee/state')).body;
    expect(before.firmwareVersion).toBe('7.4.1.0');
    const flashed = (await privateHandlers(t, zigbeeManager)('flashFirmware')) as Json;
    expect(flashed).toMatchObject({ previousFirmwareVersion: '7.4.1.0', firmwareVersion: '7.4.4.0', panId: before.panId });
    expect((await t.call<Json>('GET', '/zigbee/state')).body.firmwareVersion).toBe('7.4.4.0');
  });
});
