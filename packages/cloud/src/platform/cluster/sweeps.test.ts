import { randomBytes } from 'node:crypto';
import { HearthError } from '@hearth/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../database';
import { migrations } from '../../database/migrations';
import type { Cloud } from '../../server';
import { createUser, DEMO_USER, describeOnDatabases, signIn, startTestCloud } from '../../testing';

/** Every request of the test must answer: one that hangs fails it here instead of at the test's time limit. */
const ANSWER_WITHIN_MS = 5_000;

describeOnDatabases('background sweeps keep the cloud answering', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  const health = () => fetch(`${cloud.url}/cloud/health`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });

  it('runs every sweep through many periods, each once a period, and the cloud answers throughout', async () => {
    const { db } = cloud.context.database;
    const declared = cloud.context.sweeps.declared;
    expect([...declared.keys()]).toEqual(
      expect.arrayContaining(['store-subscription-expiry', 'store-guest-carts', 'setup-expired-sessions']),
    );
    // A subscription whose time is up: the expiry sweep must end it.
    const user = await createUser(cloud, `sweeps-${backend}@hearth.test`);
    const expiring = `homey_plus_${randomBytes(6).toString('hex')}`;
    await db
      .insertInto('subscriptions')
      .values({
        id: expiring,
        user_id: user.id,
        type: 'homey_plus',
        status: 'active',
        quantity: 1,
        started_at: new Date(Date.now() - 40 * 86_400_000),
        expires_at: new Date(Date.now() - 1000),
        data: '{}',
        updated_at: new Date(),
      })
      .execute();

    // The sweeps' clock runs ahead: five periods of each, every sweep ticked twice a period.
    const start = Date.now() + 1000;
    for (const [name, everyMs] of declared) {
      const ran: boolean[] = [];
      for (let half = 0; half < 10; half++) {
        ran.push(await cloud.context.sweeps.tick(name, new Date(start + (half * everyMs) / 2)));
        expect((await health()).status).toBe(200);
      }
      // Once a period: the tick half a period after a run leaves it be.
      expect(ran, name).toEqual([true, false, true, false, true, false, true, false, true, false]);
      const row = await db.selectFrom('sweep_runs').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
      expect(row.running_until, name).toBeNull();
    }
    const subscription = await db.selectFrom('subscriptions').selectAll().where('id', '=', expiring).executeTakeFirstOrThrow();
    expect(subscription.status).toBe('expired');
    // Sign-in, the first thing a person does, still works.
    expect((await signIn(cloud, DEMO_USER.email, DEMO_USER.password)).access_token).toEqual(expect.any(String));
  });

  it('does not run a sweep while another node’s claim on it holds, and takes over once the claim lapses', async () => {
    const name = 'store-guest-carts';
    const everyMs = cloud.context.sweeps.declared.get(name) as number;
    const { db } = cloud.context.database;
    const now = Date.now() + 100 * everyMs;
    // Another node claimed the sweep a period ago and is still running it.
    await db
      .updateTable('sweep_runs')
      .set({ last_run_at: new Date(now - everyMs), running_until: new Date(now + everyMs) })
      .where('name', '=', name)
      .execute();
    expect(await cloud.context.sweeps.tick(name, new Date(now))).toBe(false);
    // Its run was taken for dead once the claim lapsed.
    expect(await cloud.context.sweeps.tick(name, new Date(now + everyMs + 1))).toBe(true);
  });
});

describe('the embedded database’s one connection', () => {
  it('answers health with 503 naming the database while the connection is held, and recovers', async () => {
    const cloud = await startTestCloud('pglite');
    try {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const holding = cloud.context.database.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        await held;
      });
      const busy = await fetch(`${cloud.url}/cloud/health`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
      expect(busy.status).toBe(503);
      expect(await busy.json()).toMatchObject({ error: 'unavailable', error_description: expect.stringContaining('database') });
      release();
      await holding;
      expect((await fetch(`${cloud.url}/cloud/health`)).status).toBe(200);
    } finally {
      await cloud.stop();
    }
  });

  it('fails a query that waits on its own transaction instead of waiting forever', async () => {
    const database = await openDatabase({ dataDir: 'memory://', schema: 'bounded_wait', connectionWaitMs: 300 }, migrations);
    try {
      const outcome = await database.db
        .transaction()
        .execute(async () => {
          // The mistake this guards against: a query through the pool inside a transaction on the one connection.
          await sql`SELECT 1`.execute(database.db);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(outcome).toBeInstanceOf(HearthError);
      expect(outcome).toMatchObject({ code: 'unavailable', statusCode: 503 });
      // The connection came back: the database answers again.
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
  });
});
