import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { privateHandlers } from '../../testing/private';
import { zwaveManager } from '.';

type Json = Record<string, unknown>;

/** A developer's Z-Wave driver whose pairing lists devices without a node id: the controller allocates one on sight. */
const listedZwaveApp = {
  id: 'com.example.zwavelisted',
  version: '1.0.0',
  sdk: 3,
  name: { en: 'Listed Z-Wave plugs' },
  author: { name: 'Dev Eloper', email: 'dev@example.test' },
  drivers: [{ id: 'plug', name: 'Plug', class: 'socket', capabilities: ['onoff'], connectivity: ['zwave'] }],
};

describe('Z-Wave calls of the older description, over HTTP', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub({ language: 'en' });
    await untilAppRunning(t);
  });
  afterAll(() => t.stop());

  it('the region option: the language decides until set; regionOverride takes precedence', async () => {
    expect((await t.call('GET', '/zwave/option/region')).body).toEqual({ value: 'EU' });
    expect((await t.call('PUT', '/zwave/option/region', { value: 'JP' })).body).toEqual({ value: 'JP' });
    expect((await t.call<Json>('GET', '/zwave/state')).body).toMatchObject({ region: 'JP', regionOverride: null });
    await t.call('PUT', '/zwave/option/regionOverride', { value: 'US' });
    expect((await t.call<Json>('GET', '/zwave/state')).body).toMatchObject({ region: 'US', regionOverride: 'US' });
    expect((await t.call('GET', '/zwave/option/region')).body).toEqual({ value: 'JP' });
    await t.call('DELETE', '/zwave/option/regionOverride');
    expect((await t.call<Json>('GET', '/zwave/state')).body.region).toBe('JP');

    const refused = await t.call<Json>('PUT', '/zwave/option/region', { value: 'XX' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_parameter');
    expect((await t.call('PUT', '/zwave/option/region', { value: null })).status).toBe(400);
    expect((await t.call('GET', '/zwave/option/region')).body).toEqual({ value: 'JP' });
    const guest = t.sessionFor('guest', ['homey.system.readonly']);
    expect((await t.call('PUT', '/zwave/option/region', { value: 'EU' }, guest)).status).toBe(403);
    expect((await t.call('GET', '/zwave/option/region', undefined, guest)).body).toEqual({ value: 'JP' });

    expect((await t.call('DELETE', '/zwave/option/region')).status).toBe(204);
    expect((await t.call('GET', '/zwave/option/region')).body).toEqual({ value: 'EU' });
    expect((await t.call<Json>('GET', '/zwave/state')).body.region).toBe('EU');
  });

  it('a hub set up in US English starts in the US region', async () => {
    const us = await startTestHub({ language: 'en-us' });
    try {
      expect((await us.call('GET', '/zwave/option/region')).body).toEqual({ value: 'US' });
    } finally {
      await us.stop();
    }
  });

  it('the private tools are served (refused to every session that is not internal), and act on the controller', async () => {
    for (const [path, body] of [
      ['/zwave/lbt-threshold', { threshold: -80 }],
      ['/zwave/attempt-nvm-fix', {}],
      ['/zwave/flash-firmware', { erase: false }],
    ] as const) {
      const refused = await t.call<Json>('PUT', path, body);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error, path).toBe('private_operation');
    }
    const call = privateHandlers(t, zwaveManager);

    expect((await t.call<Json>('GET', '/zwave/state')).body.lbtThreshold).toBe(-75);
    expect(await call('setLbtThreshold', { body: { threshold: -82 } })).toEqual({ lbtThreshold: -82 });
    expect((await t.call<Json>('GET', '/zwave/state')).body.lbtThreshold).toBe(-82);

    // A device whose pairing gave no node id gets one from the controller; once the device is gone (a removal
    // that left its entry behind), the NVM fix drops that entry, and only that one.
    await t.call('POST', '/devkit/app', { manifest: listedZwaveApp, run: false });
    await untilAppRunning(t, listedZwaveApp.id);
    const kept = await pairDevice(t, `homey:app:${listedZwaveApp.id}:plug`);
    const removed = await pairDevice(t, `homey:app:${listedZwaveApp.id}:plug`);
    const nodes = (await t.call<Json[]>('POST', '/zwave/command', { command: 'getNodes' })).body;
    const nodeOf = (deviceId: string) => nodes.find((n) => n.deviceId === deviceId)?.nodeId;
    expect(nodeOf(kept)).toEqual(expect.any(Number));
    expect(nodeOf(removed)).toEqual(expect.any(Number));
    expect((await t.call('DELETE', `/devices/device/${removed}`)).status).toBe(204);
    expect(await call('attemptNvmFix')).toEqual({ removedNodes: 1, nodes: 2 });
    expect(await call('attemptNvmFix')).toEqual({ removedNodes: 0, nodes: 2 });
    const after = (await t.call<Json[]>('POST', '/zwave/command', { command: 'getNodes' })).body;
    expect(after.find((n) => n.deviceId === kept)?.nodeId).toBe(nodeOf(kept));

    // Flashing keeps the network; erasing it is refused while a Z-Wave device is paired.
    const before = (await t.call<Json>('GET', '/zwave/state')).body;
    const flashed = (await call('flashFirmware', { body: {} })) as Json;
    expect(flashed).toMatchObject({ previousFirmwareVersion: before.firmwareVersion, erased: false, homeId: before.homeId });
    expect(flashed.firmwareVersion).not.toBe(before.firmwareVersion);
    await expect(call('flashFirmware', { body: { erase: true } })).rejects.toMatchObject({ code: 'conflict' });
    expect((await t.call<Json>('GET', '/zwave/state')).body.homeId).toBe(before.homeId);

    // With no Z-Wave device left, erasing makes a new network whose node ids start again.
    expect((await t.call('DELETE', `/devices/device/${kept}`)).status).toBe(204);
    const erased = (await call('flashFirmware', { body: { erase: true } })) as Json;
    expect(erased).toMatchObject({ erased: true, nodes: 1 });
    expect(erased.homeId).not.toBe(before.homeId);
    const included = await t.call<{ data: Json }>(
      'GET',
      `/devices/device/${await pairDevice(t, 'homey:app:com.hearth.virtual:zwave', { event: 'zwave_include' })}`,
    );
    expect(included.body.data.nodeId).toBe(2);
  });
});
