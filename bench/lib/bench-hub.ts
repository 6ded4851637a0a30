// What the hub benchmarks' server processes share: a real hub of their own, and the SQLite database their bare
// baselines write to.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOAD_TEST_RATE_LIMITS } from '@hearth/contract/testing';
import { type Hub, type HubConfig, startHub } from '@hearth/hub';
import Database from 'better-sqlite3';

/**
 * A real Pro hub in a fresh data directory, without logs or mDNS, and without a cloud unless `overrides` name one.
 * The directory goes when the process exits (a run of the flow benchmark leaves a database of ~70 MB).
 */
export async function startBenchHub(id: string, overrides: Partial<HubConfig> = {}): Promise<{ hub: Hub; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-'));
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const hub = await startHub({
    id,
    name: 'Bench hub',
    model: 'hearth-pro-5q',
    host: '127.0.0.1',
    port: 0,
    dataDir,
    softwareVersion: '12.4.0',
    language: 'en',
    cloudUrl: null,
    logLevel: 'silent',
    rateLimits: LOAD_TEST_RATE_LIMITS,
    ...overrides,
  });
  return { hub, dataDir };
}

/**
 * The bare baselines' database: SQLite in WAL mode with every commit synced to disk before the call returns —
 * what an acknowledged write must cost when nothing shares the flush.
 */
export function openDurableBaseline(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'bare.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
}
