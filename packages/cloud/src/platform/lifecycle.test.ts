import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { startTestCloud } from '../testing';

/** What the process holds on to: handles and timers by type, and listeners on the process object. */
function resources() {
  const byType: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) byType[type] = (byType[type] ?? 0) + 1;
  const processListeners = process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0);
  return { byType, total: process.getActiveResourcesInfo().length, processListeners };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

it('starts and stops a cloud 50 times in one process and leaves no handles, timers or listeners behind', {
  // Fifty real clouds take longer the busier the machine is; the limit is there to catch a hang, not to time them.
  timeout: 300_000,
}, async () => {
  // One schema for every cycle: the first migrates and seeds it, the others start on it as a restarted cloud does.
  const databaseSchema = `life_${randomBytes(4).toString('hex')}`;
  // Without the demo world: seeding it (password hashes, a catalogue) is the slow part of a start, and not what is checked.
  const config = { databaseSchema, demoHubs: null };
  const warm = await startTestCloud('pglite', config);
  await warm.stop();
  await settle();
  const before = resources();
  for (let cycle = 0; cycle < 50; cycle += 1) {
    const cloud = await startTestCloud('pglite', config);
    // Each cycle really serves: a call that reads the database and one that writes to it (a refused sign-in is
    // counted by the throttle and recorded).
    const health = await fetch(`${cloud.url}/cloud/health`);
    expect(health.status).toBe(200);
    const token = await fetch(`${cloud.url}/cloud/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'wrong' }),
    });
    expect(token.status).toBe(401);
    await cloud.stop();
  }
  await settle();
  const after = resources();
  expect(after.byType).toEqual(before.byType);
  expect(after.total).toBe(before.total);
  expect(after.processListeners).toBe(before.processListeners);
});
