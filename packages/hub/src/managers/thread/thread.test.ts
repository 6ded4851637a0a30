import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { privateHandlers } from '../../testing/private';
import { threadManager } from '.';

type Json = Record<string, unknown>;

/**
 * The simulated Thread border router (a stand-in: this machine has no Thread radio). Its child is the virtual
 * app's simulated Matter-over-Thread thermostat, which is not a node of the hub's Matter fabric.
 */
describe('Thread calls of the simulated border router, over HTTP', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    await pairDevice(t, 'homey:app:com.hearth.virtual:matter', { event: 'matter_code', data: { code: '34970112332' } });
  });
  afterAll(() => t.stop());

  it('Thread: private CLI commands, enable and disable, reset and border router scans', async () => {
    expect((await t.call<Json>('POST', '/thread/execute-command', { command: 'state' })).body).toMatchObject({
      error: 'private_operation',
    });
    for (const path of ['/thread/disable', '/thread/enable', '/thread/discovered-border-routers']) {
      expect((await t.call('GET', path)).status, path).toBe(403);
    }
    const call = privateHandlers(t, threadManager);
    const run = async (command: string) => ((await call('executeCommand', { body: { command } })) as { output: string[] }).output;
    const dataset = (await t.call<Json>('GET', '/thread/topology')).body;
    expect(await run('state')).toEqual(['leader', 'Done']);
    expect(await run('networkname')).toEqual([String(dataset.networkName), 'Done']);
    expect((await run('child table')).some((line) => line.includes('Matter'))).toBe(true);
    await expect(run('factoryreset now')).rejects.toMatchObject({ code: 'invalid_parameter' });

    expect(await call('getDiscoveredBorderRouters')).toEqual([]);
    const routers = (await call('rescanBorderRouters')) as Json[];
    expect(routers).toEqual(
      expect.arrayContaining([expect.objectContaining({ sameNetwork: true, networkName: dataset.networkName })]),
    );
    expect(await call('getDiscoveredBorderRouters')).toEqual(routers);

    expect(await call('apiDisable')).toEqual({ enabled: false });
    expect((await t.call<Json>('GET', '/thread/state')).body).toMatchObject({ enabled: false, role: 'disabled' });
    expect(await run('state')).toEqual(['disabled', 'Done']);
    await expect(run('channel')).rejects.toMatchObject({ code: 'conflict' });
    await expect(call('rescanBorderRouters')).rejects.toMatchObject({ code: 'conflict' });
    expect(await call('apiEnable')).toEqual({ enabled: true });

    const before = (await t.call<Json>('GET', '/thread/state')).body.networkName;
    const reset = (await call('apiReset')) as { enabled: boolean; dataset: Json };
    expect(reset.enabled).toBe(true);
    expect(reset.dataset.extendedPanId).not.toBe(dataset.extendedPanId);
    expect((await t.call<Json>('GET', '/thread/state')).body.networkName).toBe(before);
    expect(await call('getDiscoveredBorderRouters')).toEqual([]);
  });
});
