import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { databasePath, type HubConfig } from '../../config';
import { appsDirectory } from '../backup/archive';

/** A factory reset asked for, applied at the hub's next start: `<dataDir>/<hub id>.factory-reset.json`. */
const markerOf = (config: Pick<HubConfig, 'dataDir' | 'id'>) => join(config.dataDir, `${config.id}.factory-reset.json`);

interface ResetNote {
  reason: string;
  /** The name the hub takes on its fresh start (a setup session's), instead of its configured one. */
  name: string | null;
  stagedAt: string;
}

/** Asks for a factory reset at the next start ({@link applyStagedFactoryReset}); the running hub is untouched. */
export function stageFactoryReset(
  config: Pick<HubConfig, 'dataDir' | 'id'>,
  reset: { reason: string; name: string | null; at: number },
): void {
  const note: ResetNote = { reason: reset.reason, name: reset.name, stagedAt: new Date(reset.at).toISOString() };
  writeFileSync(markerOf(config), JSON.stringify(note));
}

/** Whether a factory reset waits for the next start. */
export const factoryResetPending = (config: Pick<HubConfig, 'dataDir' | 'id'>): boolean => existsSync(markerOf(config));

/**
 * Applies a staged factory reset before the hub opens its database (the composition root calls it first): the
 * database goes (zones, devices, flows, variables, users, settings — the hub seeds itself afresh), with every app's
 * folder and the hub's local backup archives (a restore staged as well is applied after it). The hub keeps its id, its configuration
 * and the setup session it follows (kept beside the database). Answers the reset applied, or `null`.
 */
export function applyStagedFactoryReset(config: HubConfig, log: (message: string) => void = () => {}): ResetNote | null {
  const marker = markerOf(config);
  if (!existsSync(marker)) return null;
  let note: ResetNote;
  try {
    note = JSON.parse(readFileSync(marker, 'utf8')) as ResetNote;
  } catch {
    // A marker cut short by a crash still asks for the reset.
    note = { reason: 'unknown', name: null, stagedAt: new Date().toISOString() };
  }
  const database = databasePath(config);
  if (existsSync(database)) {
    // The archives' files live in a folder the hub's database lists; their rows go with the database.
    const db = new Database(database, { readonly: true });
    try {
      const archives = db.prepare('SELECT file_name FROM backup_archive').all() as { file_name: string }[];
      for (const archive of archives) rmSync(join(config.dataDir, 'backups', archive.file_name), { force: true });
    } catch {
      // A database from before local backups has no such table.
    } finally {
      db.close();
    }
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
  rmSync(appsDirectory(config), { recursive: true, force: true });
  rmSync(marker, { force: true });
  log(`info factory reset (${note.reason}) staged ${note.stagedAt}: the hub starts afresh`);
  return note;
}
