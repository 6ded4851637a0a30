import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { untilAppRunning } from '../../testing/pairing';
import { privateHandlers } from '../../testing/private';
import { zwaveManager } from '.';

type Json = Record<string, unknown>;

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

  it('the private tools are served (refused to every session that is not internal); without a stick only the threshold works', async () => {
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

    // The NVM repair and the firmware flash acted on the simulated controller; a hub without a stick refuses them.
    for (const [operation, opts] of [
      ['attemptNvmFix', {}],
      ['flashFirmware', { body: {} }],
      ['flashFirmware', { body: { erase: true } }],
    ] as const) {
      await expect(call(operation, opts), operation).rejects.toMatchObject({ code: 'no_controller' });
    }
  });
});
