import { createHash } from 'node:crypto';
import {
  cpSync,
  createReadStream,
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type { HubContext } from '../../platform/context';
import { commitPendingChanges } from '../../store/database';
import { fabricDir } from '../matter/fabric-dir';

/** Where each app keeps what it writes for good (`/userdata`), by app id (the app host's folders). */
export const appsDirectory = (config: { dataDir: string; id: string }) => join(config.dataDir, `${config.id}.apps`);

/** The file in an archive that says what it holds. */
export const MANIFEST = 'hearth-backup.json';
/** The database in an archive. */
export const DATABASE = 'hub.db';
/** App userdata in an archive: `userdata/<app id>/…`. */
export const USERDATA = 'userdata';
/** The hub's Matter fabric in an archive (its controller's credentials and nodes): `matter/…`. */
export const MATTER_FABRIC = 'matter';
/** The files by which matter.js marks a storage folder as in use by a process. */
const MATTER_LOCK_FILES = new Set(['matter.lock', 'matter.pid']);

/** What a backup archive holds, written into it beside the database. */
export interface BackupManifest {
  format: 1;
  hubId: string;
  hubName: string;
  model: string;
  softwareVersion: string;
  createdAt: string;
  /** What the database holds, for people choosing a backup to restore (the cloud lists it as the backup's meta). */
  counts: { zones: number; devices: number; flows: number; variables: number; users: number; apps: number };
}

const count = (db: Database.Database, sql: string): number => {
  try {
    return Number(db.prepare(sql).pluck().get() ?? 0);
  } catch {
    return 0; // a table this software version does not have
  }
};

/** What a copied database holds. */
export function countsOf(databasePath: string): BackupManifest['counts'] {
  const db = new Database(databasePath, { readonly: true });
  try {
    return {
      zones: count(db, 'SELECT count(*) FROM zone'),
      devices: count(db, 'SELECT count(*) FROM device'),
      flows: count(db, 'SELECT (SELECT count(*) FROM flow_flow) + (SELECT count(*) FROM flow_advanced)'),
      variables: count(db, 'SELECT count(*) FROM logic_variable'),
      users: count(db, 'SELECT count(*) FROM user'),
      apps: count(db, 'SELECT count(*) FROM app'),
    };
  } finally {
    db.close();
  }
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes a backup archive of the hub to `path`: a gzipped tar of its database (copied with SQLite's online backup
 * API, a consistent copy while the hub keeps writing; settings live there too), every app's userdata folder, and a
 * manifest. `staging` is an empty folder the copy is made in; the caller removes it.
 */
export async function writeArchive(context: HubContext, path: string, staging: string, hubName: string) {
  commitPendingChanges(context.db); // the copy holds committed changes only
  await context.db.backup(join(staging, DATABASE));
  const apps = appsDirectory(context.config);
  if (existsSync(apps)) {
    for (const appId of readdirSync(apps)) {
      const userdata = join(apps, appId, 'userdata');
      if (existsSync(userdata)) cpSync(userdata, join(staging, USERDATA, appId), { recursive: true });
    }
  }
  // Without its fabric a restored hub would have the devices but no right to control their nodes. matter.js
  // writes each of its files whole (a new file renamed over the old), so a copy holds each as last written. The
  // running controller's lock files stay behind: the restored hub takes its own lock.
  const fabric = fabricDir(context.config.dataDir, context.config.id);
  if (existsSync(fabric))
    cpSync(fabric, join(staging, MATTER_FABRIC), { recursive: true, filter: (path) => !MATTER_LOCK_FILES.has(basename(path)) });
  const manifest: BackupManifest = {
    format: 1,
    hubId: context.config.id,
    hubName,
    model: context.config.model,
    softwareVersion: context.config.softwareVersion,
    createdAt: new Date(context.clock.now()).toISOString(),
    counts: countsOf(join(staging, DATABASE)),
  };
  writeFileSync(join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
  const entries = [MANIFEST, DATABASE, ...[USERDATA, MATTER_FABRIC].filter((entry) => existsSync(join(staging, entry)))];
  // tar is loaded when a backup is made (hours apart), not kept in an idle hub.
  const { create: createTar } = await import('tar');
  await pipeline(createTar({ gzip: true, cwd: staging, portable: true }, entries), createWriteStream(path, { flags: 'wx' }));
  return { size: statSync(path).size, sha256: await sha256Of(path), manifest };
}

/** The manifest of an unpacked archive; refuses a folder that is not one. */
export function readManifest(folder: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new Error('the archive has no backup manifest');
  }
  if (manifest.format !== 1) throw new Error(`the archive's format ${String(manifest.format)} is not one this hub reads`);
  if (!existsSync(join(folder, DATABASE))) throw new Error('the archive has no database');
  return manifest;
}
