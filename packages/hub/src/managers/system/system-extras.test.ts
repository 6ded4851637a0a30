import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { REBOOT_MS, systemManager } from '.';

interface Report {
  versions: { hearth: string; node: string; sqlite: string };
  apps: unknown[];
  log: string[];
  append: string | null;
  hub: { id: string };
}

describe('system manager: state, reboots, resources, journal, debug, wifi', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('reports the under-voltage ratio only for models ending in 5q, 6q or 7q', async () => {
    expect((await t.call<Record<string, unknown>>('GET', '/system/')).body.videoCoreUnderVoltageCurrentlyRatio).toBe(0);
    for (const [model, has] of [
      ['hearth-pro-mini-6q', true],
      ['hearth-cloud', false],
    ] as const) {
      const other = await startTestHub({ model });
      try {
        const info = (await other.call<Record<string, unknown>>('GET', '/system/')).body;
        expect('videoCoreUnderVoltageCurrentlyRatio' in info, model).toBe(has);
        if (model === 'hearth-cloud') expect((await other.call('POST', '/system/enable-wifi', {})).status).toBe(409);
      } finally {
        await other.stop();
      }
    }
  });

  it('goes through a reboot of each kind and comes back', async () => {
    for (const [path, mode] of [
      ['/system/reboot', 'normal'],
      ['/system/rebootrecovery', 'recovery'],
      ['/system/reboot-ota', 'ota'],
    ] as const) {
      expect((await t.call('POST', path, {})).status).toBe(204);
      expect((await t.call('GET', '/system/state')).body).toMatchObject({ status: 'rebooting', mode });
      expect((await t.call('POST', '/system/reboot', {})).status).toBe(409);
      await expect
        .poll(async () => (await t.call<{ status: string }>('GET', '/system/state')).body.status, { timeout: REBOOT_MS + 2000 })
        .toBe('running');
    }
    expect((await t.call('GET', '/system/state')).body).toMatchObject({ rebootCount: 3, lastReboot: { mode: 'ota' } });
  });

  it('measures memory and storage from the real process and disk', async () => {
    const memory = await t.call<{ total: number; free: number; types: { hub: { size: number } } }>('GET', '/system/memory');
    expect(memory.body.total).toBeGreaterThan(memory.body.free);
    expect(memory.body.types.hub.size).toBeGreaterThan(10_000_000);
    const memoryTotal = await t.call<{ total: number; used: number; free: number }>('GET', '/system/memory/total');
    expect(memoryTotal.body.used + memoryTotal.body.free).toBe(memoryTotal.body.total);
    const storage = await t.call<{ total: number; free: number; types: { database: { size: number } } }>(
      'GET',
      '/system/storage',
    );
    expect(storage.body.total).toBeGreaterThan(0);
    expect(storage.body.types.database.size).toBeGreaterThan(0);
    expect((await t.call<{ total: number }>('GET', '/system/storage/total')).body.total).toBe(storage.body.total);
  });

  it('sets debug namespaces in both forms and switches wifi', async () => {
    expect((await t.call('PUT', '/system/debug', { namespace: 'homey:manager:*' })).body).toEqual({
      namespace: 'homey:manager:*',
    });
    expect((await t.call<{ debug: string }>('GET', '/system/state')).body.debug).toBe('homey:manager:*');
    expect((await t.call('PUT', '/system/debug/*', {})).body).toEqual({ namespace: '*' });
    expect((await t.call<{ error_description: string }>('PUT', '/system/debug', {})).body.error_description).toBe(
      'Missing Parameter: namespace',
    );
    expect((await t.call('POST', '/system/disable-wifi', {})).body).toEqual({ enabled: false });
    expect((await t.call<{ wifi: boolean }>('GET', '/system/')).body.wifi).toBe(false);
    expect((await t.call('POST', '/system/enable-wifi', {})).body).toEqual({ enabled: true });
  });

  it('keeps the forwarded port option', async () => {
    expect((await t.call('GET', '/system/option/forwardedPort')).body).toEqual({ value: null });
    expect((await t.call('PUT', '/system/option/forwardedPort', { value: 8443 })).body).toEqual({ value: 8443 });
    expect((await t.call('PUT', '/system/option/forwardedPort', { value: 70000 })).status).toBe(400);
    expect((await t.call('DELETE', '/system/option/forwardedPort')).status).toBe(204);
  });

  it('answers recent log lines and stores a diagnostic report by id', async () => {
    await t.call('POST', '/logic/variable', { name: 'Logged', type: 'number', value: 1 });
    const journal = await t.call<string[]>('GET', '/system/journalctl?lines=50');
    expect(journal.body.some((line) => line.includes('homey:manager:logic variable.create'))).toBe(true);
    const sent = await t.call<string>('POST', '/system/journalctl', { append: 'The lamp flickers' });
    expect(sent.status).toBe(200);
    expect(typeof sent.body).toBe('string');
    const row = t.hub.context.db.prepare('SELECT report FROM system_log_report WHERE id = ?').pluck().get(sent.body) as string;
    const report = JSON.parse(row) as Report;
    expect(report.hub.id).toBe(t.hub.context.config.id);
    expect(report.versions.node).toBe(process.version);
    expect(report.versions.sqlite).toMatch(/^3\./);
    expect(Array.isArray(report.apps)).toBe(true);
    expect(report.log.some((line) => line.includes('variable.create'))).toBe(true);
    expect(report.append).toBe('The lamp flickers');
  });

  it('keeps profiling to internal sessions', async () => {
    expect((await t.call('POST', '/system/profile/start', { duration: 1000 })).status).toBe(403);
    expect((await t.call('POST', '/system/profile/stop', {})).status).toBe(403);
  });

  it('profiles the event loop for an internal caller', async () => {
    // No internal session exists on a test hub, so the handlers are called as the transport would after authorising.
    const handlers = Object.fromEntries(
      (t.hub.managers.get(systemManager.name)?.implementations ?? []).map((i) => [i.operation.name, i.handler]),
    );
    const call = (name: string, body: unknown) => handlers[name]?.({ body } as never);
    expect(await call('startProfile', { duration: 5000 })).toMatchObject({ duration: 5000 });
    await expect(Promise.resolve().then(() => call('startProfile', {}))).rejects.toMatchObject({ code: 'conflict' });
    expect((await t.call<{ profiling: boolean }>('GET', '/system/state')).body.profiling).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const result = (await call('stopProfile', {})) as { eventLoopDelay: { p99: number } };
    expect(result.eventLoopDelay.p99).toBeGreaterThan(0);
    await expect(Promise.resolve().then(() => call('stopProfile', {}))).rejects.toMatchObject({ code: 'conflict' });
  });
});
