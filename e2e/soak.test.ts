import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSystem, startSystem } from './system';

/** Hours of background sweeps in seconds: 15 minutes become a quarter second, six hours six seconds. */
const SPEEDUP = 3600;
const SOAK_MS = 25_000;
const ANSWER_WITHIN_MS = 5_000;

/**
 * The system as `npm start` runs it, on its embedded database, with the cloud's sweep periods shortened so that
 * every sweep runs several times while people sign in and use a hub: nothing may stop answering (the embedded cloud
 * once hung for good at its first sweep, 15 minutes after every start).
 */
describe('a soak of the whole system with its background jobs sped up', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    // On the embedded database even where the suite has PostgreSQL: its one connection is what once hung.
    system = await startSystem({ HEARTH_SWEEP_SPEEDUP: String(SPEEDUP), DATABASE_URL: '', DATABASE_SCHEMA: 'public' });
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('keeps answering sign-in, the cloud’s health and the hub API while every sweep runs again and again', async () => {
    const hub = system.hubs[0] as RunningSystem['hubs'][number];
    const failures: string[] = [];
    const expectOk = async (what: string, request: Promise<Response>) => {
      try {
        const response = await request;
        if (response.status !== 200) failures.push(`${what}: ${response.status} ${await response.text()}`);
      } catch (error) {
        failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    const signal = () => AbortSignal.timeout(ANSWER_WITHIN_MS);
    const end = Date.now() + SOAK_MS;
    let rounds = 0;
    while (Date.now() < end) {
      rounds++;
      await Promise.all([
        expectOk(
          'sign-in',
          fetch(`${system.cloudUrl}/cloud/oauth2/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'password',
              username: 'demo@hearth.test',
              password: 'hearth-demo-password',
              client_id: 'hearth-demo',
              client_secret: 'hearth-demo-secret',
            }),
            signal: signal(),
          }),
        ),
        expectOk('cloud health', fetch(`${system.cloudUrl}/cloud/health`, { signal: signal() })),
        expectOk(
          'hub zones',
          fetch(`${hub.url}/api/manager/zones/zone`, {
            headers: { authorization: `Bearer ${hub.ownerToken}` },
            signal: signal(),
          }),
        ),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(failures).toEqual([]);
    expect(rounds).toBeGreaterThan(5);

    // The cloud's own record of its sweeps, read once it has stopped: each ran several times.
    await system.stop({ keepData: true });
    const database = await PGlite.create(join(system.dataDir, 'cloud'));
    try {
      const { rows } = await database.query<{ name: string; runs: number }>('SELECT name, runs FROM public.sweep_runs');
      const runs = Object.fromEntries(rows.map((row) => [row.name, row.runs]));
      for (const name of [
        'store-subscription-expiry',
        'store-guest-carts',
        'setup-expired-sessions',
        'backup-incomplete',
        'helpdesk-unclaimed-uploads',
      ])
        expect(runs[name] ?? 0, `${name} in ${JSON.stringify(runs)}`).toBeGreaterThanOrEqual(3);
    } finally {
      await database.close();
      rmSync(system.dataDir, { recursive: true, force: true });
    }
  });
});
