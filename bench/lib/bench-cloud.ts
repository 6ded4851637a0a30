// What the cloud benchmarks share: a real cloud of their own, silent, on a free loopback port, with the load-test
// rate limits, on PGlite in memory or on PostgreSQL in a schema of its own.
import { randomBytes } from 'node:crypto';
import { type Cloud, type CloudConfig, cloudConfigFromEnv, startCloud } from '@hearth/cloud';
import { LOAD_TEST_RATE_LIMITS } from '@hearth/contract/testing';
import { sql } from 'kysely';

/** Starts the cloud; `drop` removes its PostgreSQL schema (nothing on PGlite), to call before `cloud.stop()`. */
export async function startBenchCloud(overrides: Partial<CloudConfig> = {}): Promise<{ cloud: Cloud; drop(): Promise<void> }> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const cloud = await startCloud({
    // The defaults of a cloud started with an empty environment (no outside mail, demo world or Redis).
    ...cloudConfigFromEnv({ LOG_LEVEL: 'silent' }),
    port: 0,
    publicUrl: 'http://127.0.0.1',
    dataDir: 'memory://',
    databaseSchema: schema,
    refreshTokenLifetime: 86_400,
    rateLimits: LOAD_TEST_RATE_LIMITS,
    ...overrides,
  });
  const drop = async () => {
    if (cloud.context.database.kind === 'postgres')
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(cloud.context.database.db);
  };
  return { cloud, drop };
}
