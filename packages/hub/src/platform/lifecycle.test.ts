import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTestHub } from '../testing/hub';

/** What the process holds on to: handles and timers by type, and listeners on the process object. */
function resources() {
  const byType: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) byType[type] = (byType[type] ?? 0) + 1;
  const processListeners = process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0);
  return { byType, total: process.getActiveResourcesInfo().length, processListeners };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

it('starts and stops a hub 50 times in one process and leaves no handles, timers or listeners behind', {
  // Fifty real hubs take longer the busier the machine is; the limit is there to catch a hang, not to time them.
  timeout: 300_000,
}, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-lifecycle-'));
  try {
    // The first cycle loads modules and warms caches that live for the whole process.
    const warm = await startTestHub({ dataDir });
    await warm.stop();
    await settle();
    const before = resources();
    for (let cycle = 0; cycle < 50; cycle += 1) {
      const t = await startTestHub({ dataDir });
      // Each cycle really serves: a call that reads and one that writes.
      expect((await t.call('GET', '/zones/zone')).status).toBe(200);
      expect((await t.call('PUT', '/system/name', { name: `Cycle ${cycle}` })).status).toBe(200);
      await t.stop();
    }
    await settle();
    const after = resources();
    expect(after.byType).toEqual(before.byType);
    expect(after.total).toBe(before.total);
    expect(after.processListeners).toBe(before.processListeners);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
