import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHubProcess } from '../../testing/process';

const WRITES = 10_000;
const WRITERS = 4;

describe('capability durability', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-capability-durability-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged capability value when the hub is killed during 10,000 writes', { timeout: 180_000 }, async () => {
    const id = randomBytes(12).toString('hex');
    const first = await startHubProcess(id, dataDir);
    children.push(first.child);
    const headers = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json', 'x-homey-id': id };
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${first.url}/api/manager${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    };
    for (let i = 0; (await api('GET', '/apps/app/com.hearth.virtual')).body?.state !== 'running' && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const lights: string[] = [];
    for (let i = 0; i < WRITERS; i++) {
      const session = await api('POST', '/drivers/pairsession', {
        type: 'pair',
        driverId: 'homey:app:com.hearth.virtual:zigbee',
      });
      const candidate = (await api('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'zigbee_join' })).body;
      lights.push((await api('POST', `/drivers/pairsession/${session.body.id}/device`, candidate)).body.id);
    }

    // Each writer owns one light and writes dim values in turn; it knows its last acknowledged value and
    // the one in flight when the process died (which may or may not have been committed).
    const acknowledged = new Map<string, number>();
    const inFlight = new Map<string, number>();
    let total = 0;
    let killed = false;
    const writer = async (light: string, worker: number) => {
      for (let n = 0; !killed && total < WRITES; n += 1) {
        const value = (((n + worker * 17) % 100) + 1) / 100;
        inFlight.set(light, value);
        total += 1;
        try {
          const response = await fetch(`${first.url}/api/manager/devices/device/${light}/capability/dim`, {
            method: 'PUT',
            headers,
            body: JSON.stringify({ value }),
          });
          if (response.status === 204) acknowledged.set(light, value);
        } catch {
          return;
        }
      }
    };
    const writers = Promise.all(lights.map(writer));
    while (total < 1000 + Math.random() * 3000 && total < WRITES) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    killed = true;
    await writers;
    expect(acknowledged.size).toBe(WRITERS);

    const second = await startHubProcess(id, dataDir);
    children.push(second.child);
    for (const light of lights) {
      const response = await fetch(`${second.url}/api/manager/devices/device/${light}/capability/dim`, {
        headers: { authorization: `Bearer ${second.token}` },
      });
      const stored = (await response.json()) as number;
      expect([acknowledged.get(light), inFlight.get(light)], light).toContain(stored);
    }
    second.child.kill('SIGTERM');
  });
});
