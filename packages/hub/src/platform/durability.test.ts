import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHubProcess } from '../testing/process';

describe('durability', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-durability-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged write when the hub is killed with SIGKILL', { timeout: 120_000 }, async () => {
    const id = randomBytes(12).toString('hex');
    const first = await startHubProcess(id, dataDir);
    children.push(first.child);
    const headers = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json', 'x-homey-id': id };
    const state = (await (await fetch(`${first.url}/api/manager/zones/state`, { headers })).json()) as { rootZoneId: string };

    const acknowledged = new Map<string, string>();
    let killed = false;
    const writer = async (worker: number) => {
      for (let n = 0; !killed; n += 1) {
        const name = `zone ${worker}-${n}`;
        try {
          const response = await fetch(`${first.url}/api/manager/zones/zone`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name, icon: 'home', parent: state.rootZoneId }),
          });
          if (response.status === 200) acknowledged.set(((await response.json()) as { id: string }).id, name);
        } catch {
          return; // the process is gone: this write was never acknowledged
        }
      }
    };
    const writers = Promise.all([0, 1, 2, 3].map(writer));
    while (acknowledged.size < 20) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 200));
    first.child.kill('SIGKILL');
    killed = true;
    await writers;
    expect(acknowledged.size).toBeGreaterThanOrEqual(20);

    const second = await startHubProcess(id, dataDir);
    children.push(second.child);
    const zones = (await (
      await fetch(`${second.url}/api/manager/zones/zone`, { headers: { authorization: `Bearer ${second.token}` } })
    ).json()) as Record<string, { name: string }>;
    for (const [zoneId, name] of acknowledged) expect(zones[zoneId]?.name, zoneId).toBe(name);
    second.child.kill('SIGTERM');
  });
});
