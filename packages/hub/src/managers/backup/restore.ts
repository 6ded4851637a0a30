import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { cloudOperations, HearthError } from '@hearth/contract';
import { hubSecret } from '@hearth/contract/hub-secret';
import Database from 'better-sqlite3';
import semver from 'semver';
import { cloudOwnerOf } from '../../cloudlink/ownership';
import { databasePath, type HubConfig } from '../../config';
import type { HubContext } from '../../platform/context';
import { SettingStore } from '../../store/settings';
import { fabricDir } from '../matter/fabric-dir';
import { appsDirectory, type BackupManifest, DATABASE, MATTER_FABRIC, readManifest, USERDATA } from './archive';

/** A restore downloaded and unpacked, waiting for the hub's next start: `<dataDir>/<hub id>.restore/`. */
export const stagedRestoreDirectory = (config: Pick<HubConfig, 'dataDir' | 'id'>) => join(config.dataDir, `${config.id}.restore`);
/** What the staged restore is, beside the unpacked archive. */
export const RESTORE_NOTE = 'restore.json';
/** How long a download of an archive may take. */
const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;

export interface RestoreNote {
  backupId: string;
  /** The name the hub takes after the restore (a setup session's), instead of the backed-up hub's. */
  name: string | null;
  stagedAt: string;
}

/** What a restore applied at start brought. */
export interface AppliedRestore {
  backupId: string;
  manifest: BackupManifest;
}

/** The cloud account and secret the hub's backup calls go with; refuses when the hub has no owner in the cloud yet. */
export async function cloudIdentity(context: HubContext) {
  const { cloudUrl, cloudClientSecret, id } = context.config;
  if (!cloudUrl || !cloudClientSecret) throw new HearthError('unavailable', 'This hub has no cloud to keep backups in');
  const userId = await cloudOwnerOf(context.cloud, context.config);
  if (!userId) throw new HearthError('conflict', 'Nobody owns this hub in the cloud yet: its backups have no account');
  return { userId, secret: hubSecret(cloudClientSecret, id) };
}

/**
 * Downloads backup `backupId` of the hub's owner from the cloud, checks it against the SHA-256 the cloud recorded,
 * unpacks it and stages it for the next start ({@link applyStagedRestore}): the running hub is untouched until then.
 */
export async function stageRestoreFromCloud(context: HubContext, backupId: string, options: { name?: string | null } = {}) {
  const { userId, secret } = await cloudIdentity(context);
  const backup = await context.cloud.call(cloudOperations.backup.getBackup, { userId, backupId, secret });
  const token = new URL(backup.url).searchParams.get('token') ?? '';
  const partial = join(context.config.dataDir, `${context.config.id}.restore-${randomUUID()}`);
  mkdirSync(join(partial, 'unpacked'), { recursive: true });
  try {
    const response = await context.cloud.download(
      cloudOperations.backup.downloadBackup,
      { backupId, token },
      { timeoutMs: DOWNLOAD_TIMEOUT_MS },
    );
    if (!response.body) throw new HearthError('unavailable', 'The cloud sent no archive');
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const file = join(partial, 'archive.tar.gz');
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), hashing, createWriteStream(file));
    const received = hash.digest('hex');
    if (received !== backup.hash)
      throw new HearthError('conflict', `The downloaded archive has SHA-256 ${received}, not the ${backup.hash} recorded`);
    // Entries are kept inside the folder: tar refuses absolute paths and `..` unless told otherwise.
    const { extract } = await import('tar');
    await extract({ file, cwd: join(partial, 'unpacked'), strict: true });
    const manifest = readManifest(join(partial, 'unpacked'));
    if (semver.valid(manifest.softwareVersion) && semver.gt(manifest.softwareVersion, context.config.softwareVersion))
      throw new HearthError(
        'conflict',
        `The backup comes from hub software ${manifest.softwareVersion}, newer than this hub's ${context.config.softwareVersion}`,
      );
    const note: RestoreNote = { backupId, name: options.name ?? null, stagedAt: new Date(context.clock.now()).toISOString() };
    writeFileSync(join(partial, 'unpacked', RESTORE_NOTE), JSON.stringify(note));
    const staged = stagedRestoreDirectory(context.config);
    rmSync(staged, { recursive: true, force: true });
    renameSync(join(partial, 'unpacked'), staged);
    return { backupId, manifest };
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * Applies a staged restore before the hub opens its database (the composition root calls it first): the backed-up
 * database replaces the hub's own, each app's userdata the app's folder, and the Matter fabric the hub's. The hub keeps its own id; local
 * sign-ins (sessions) of the backed-up hub are not carried over, nor its list of local archives. The staged
 * database is prepared completely before anything of the hub's own is touched; a restore that cannot be applied is
 * dropped and the hub starts as it was. Answers what was restored, or `null`.
 */
export function applyStagedRestore(config: HubConfig, log: (message: string) => void = () => {}): AppliedRestore | null {
  const staged = stagedRestoreDirectory(config);
  if (!existsSync(staged)) return null;
  let manifest: BackupManifest;
  let note: RestoreNote;
  try {
    manifest = readManifest(staged);
    note = JSON.parse(readFileSync(join(staged, RESTORE_NOTE), 'utf8')) as RestoreNote;
    const db = new Database(join(staged, DATABASE));
    try {
      db.exec('DELETE FROM session; DELETE FROM backup_archive');
      const settings = new SettingStore(db);
      if (note.name) settings.set('system.name', note.name);
      settings.set('backup.restoredFrom', { backupId: note.backupId, hubId: manifest.hubId, createdAt: manifest.createdAt });
    } finally {
      db.close();
    }
  } catch (error) {
    log(`error a staged restore could not be read and was dropped: ${(error as Error).message}`);
    rmSync(staged, { recursive: true, force: true });
    return null;
  }
  const target = databasePath(config);
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(join(staged, DATABASE), target);
  const apps = appsDirectory(config);
  if (existsSync(apps))
    for (const appId of readdirSync(apps)) rmSync(join(apps, appId, 'userdata'), { recursive: true, force: true });
  const userdata = join(staged, USERDATA);
  if (existsSync(userdata)) {
    for (const appId of readdirSync(userdata)) {
      mkdirSync(join(apps, appId), { recursive: true });
      renameSync(join(userdata, appId), join(apps, appId, 'userdata'));
    }
  }
  // The backed-up hub's Matter fabric becomes this hub's (under this hub's id): its nodes are controlled as before.
  const fabric = fabricDir(config.dataDir, config.id);
  rmSync(fabric, { recursive: true, force: true });
  if (existsSync(join(staged, MATTER_FABRIC))) renameSync(join(staged, MATTER_FABRIC), fabric);
  rmSync(staged, { recursive: true, force: true });
  log(`info restored backup ${note.backupId} of hub ${manifest.hubId} made ${manifest.createdAt}`);
  return { backupId: note.backupId, manifest };
}
