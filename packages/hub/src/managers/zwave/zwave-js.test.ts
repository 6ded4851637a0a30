import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { privateHandlers } from '../../testing/private';
import { until } from '../../testing/until';
import { startZwaveMockNetwork, type ZwaveMockNetwork } from '../../testing/zwave-mock';
import { zwaveManager } from '.';
import { zwaveCacheDir } from './stick';

type Json = Record<string, unknown>;
type Node = Json & { nodeId: number; interviewStage: string; commandClasses: number[] };

const BINARY_SWITCH = 0x25;
const METER = 0x32;

describe('Z-Wave on zwave-js, against its mock controller and a mock node in their own process', () => {
  let network: ZwaveMockNetwork;
  let t: TestHub;
  // The hub's identity and data folder, kept so that it can be restarted as the same hub.
  const hub = { id: randomBytes(12).toString('hex'), dataDir: mkdtempSync(join(tmpdir(), 'hearth-zwave-')) };

  const nodesOnceInterviewed = (testHub: TestHub) =>
    until(
      () => testHub.call<Json & { nodes: Node[] }>('GET', '/zwave/state'),
      // Every node: a hub stopped mid-interview leaves the mock controller in the middle of a conversation.
      (s) => [2, 3, 4].every((id) => s.body.nodes.find((n) => n.nodeId === id)?.interviewStage === 'Complete'),
      // An interview of the mock's nodes takes seconds each; a loaded CI machine may need several times that.
      60_000,
    );

  beforeAll(async () => {
    network = await startZwaveMockNetwork();
    t = await startTestHub({ ...hub, zwavePort: network.port });
  });
  afterAll(async () => {
    await t?.stop();
    await network?.stop();
    rmSync(hub.dataDir, { recursive: true, force: true });
  });
  const INTERVIEW_TEST_MS = 90_000;

  it(
    'opens the stick, interviews the node, and shows it in the state',
    async () => {
      const state = await nodesOnceInterviewed(t);
      expect(state.body).toMatchObject({
        controller: { port: network.port, ready: true, failure: null },
        homeId: '7e570001',
        controllerNodeId: 1,
      });
      expect(state.body.nodes.map((n) => n.nodeId)).toEqual([1, 2, 3, 4]);
      const plug = state.body.nodes[1]!;
      expect(plug).toMatchObject({ isController: false, status: 'alive', ready: true });
      expect(plug.commandClasses).toEqual(expect.arrayContaining([BINARY_SWITCH, METER]));

      const node = await t.call<Node>('POST', '/zwave/command', { command: 'getNode', opts: { nodeId: 2 } });
      expect(node.body).toMatchObject({ nodeId: 2, interviewStage: 'Complete' });
      expect((await t.call<Json>('POST', '/zwave/command', { command: 'ping', opts: { nodeId: 2 } })).body).toMatchObject({
        nodeId: 2,
        reachable: true,
      });
      const unknown = await t.call<Json>('POST', '/zwave/command', { command: 'ping', opts: { nodeId: 77 } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('not_found');
      const bad = await t.call<Json>('POST', '/zwave/command', { command: 'getNode', opts: { nodeId: 'two' } });
      expect(bad.status).toBe(400);
      // The simulated controller's memory repair and firmware flash are not done on a real stick yet, and say so.
      const call = privateHandlers(t, zwaveManager);
      await expect(call('attemptNvmFix')).rejects.toMatchObject({ code: 'not_implemented' });
      await expect(call('flashFirmware', { body: {} })).rejects.toMatchObject({ code: 'not_implemented' });
    },
    INTERVIEW_TEST_MS,
  );

  it('makes the network keys once and keeps them, and zwave-js its cache, in the hub', async () => {
    const keys = t.hub.context.settings.get<{ classic: Record<string, string>; longRange: Record<string, string> }>(
      'zwave.networkKeys',
      undefined as never,
    );
    expect(Object.keys(keys.classic).sort()).toEqual(['S0_Legacy', 'S2_AccessControl', 'S2_Authenticated', 'S2_Unauthenticated']);
    expect(Object.keys(keys.longRange).sort()).toEqual(['S2_AccessControl', 'S2_Authenticated']);
    const all = [...Object.values(keys.classic), ...Object.values(keys.longRange)];
    for (const key of all) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(all).size).toBe(all.length);
    const cache = zwaveCacheDir(t.hub.context);
    expect(cache.startsWith(t.dataDir)).toBe(true);
    expect(existsSync(cache) && readdirSync(cache).some((f) => f.startsWith('7e570001'))).toBe(true);
  });

  it(
    'a restarted hub keeps its keys and opens the same network, its node known',
    async () => {
      const keysBefore = t.hub.context.settings.get('zwave.networkKeys', null);
      expect(keysBefore).not.toBeNull();
      await t.stop();
      t = await startTestHub({ ...hub, zwavePort: network.port });
      expect(t.hub.context.config.id).toBe(hub.id);
      const state = await nodesOnceInterviewed(t);
      expect(state.body).toMatchObject({ controller: { ready: true }, homeId: '7e570001' });
      expect(state.body.nodes.map((n) => n.nodeId)).toEqual([1, 2, 3, 4]);
      expect(t.hub.context.settings.get('zwave.networkKeys', null)).toEqual(keysBefore);
    },
    INTERVIEW_TEST_MS,
  );
});
