import { randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cloudOperations, HearthError, hubOperations, isErrorBody } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { Cron } from 'croner';
import { CloudCallError } from '../../cloudlink/client';
import { hubModels } from '../../config';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { type Migration, transact } from '../../store/database';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';
import { rowsPerDay } from '../reports/activities';
import { hubName } from '../system';
import { type BackupManifest, writeArchive } from './archive';
import { cloudIdentity, stageRestoreFromCloud } from './restore';

/** Archives kept on the hub; older ones are removed after each backup. */
const KEEP = 5;
/** Automatic backups run nightly at 03:00 hub-local time. */
const NIGHTLY = '0 0 3 * * *';
const NIGHTLY_JOB = 'backup.nightly';
/** A nightly backup found later than this (the hub was off at 03:00) is skipped: the next night makes one. */
const NIGHTLY_GRACE_MS = 3_600_000;

/** When the next nightly backup is due after `after` (epoch ms). */
const nextNightly = (after: number): number => (new Cron(NIGHTLY, { paused: true }).nextRun(new Date(after)) as Date).getTime();

const migrations: Migration[] = [
  {
    id: 'backup-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE backup_archive (
        id TEXT PRIMARY KEY,
        file_name TEXT NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        automatic INTEGER NOT NULL,
        created_at TEXT NOT NULL
      )`),
  },
  {
    id: 'backup-002-cloud',
    up: (db) =>
      db.exec(
        'ALTER TABLE backup_archive ADD COLUMN cloud_backup_id TEXT; ALTER TABLE backup_archive ADD COLUMN cloud_error TEXT',
      ),
  },
];

const behaviours: Record<string, OptionBehaviour> = {
  automaticBackupsEnabled: { default: true },
  lastSuccessfulBackup: { default: null },
};

interface ArchiveRow {
  id: string;
  file_name: string;
  size: number;
  sha256: string;
  automatic: number;
  created_at: string;
  cloud_backup_id: string | null;
  cloud_error: string | null;
}

const toArchive = (row: ArchiveRow) => ({
  id: row.id,
  fileName: row.file_name,
  size: row.size,
  sha256: row.sha256,
  createdAt: row.created_at,
  automatic: row.automatic === 1,
  cloudBackupId: row.cloud_backup_id,
  cloudError: row.cloud_error,
});

export const backupDirectory = (context: HubContext): string => join(context.config.dataDir, 'backups');

/** How long an upload of an archive to the cloud may take. */
const UPLOAD_TIMEOUT_MS = 30 * 60 * 1000;

/** A backup kept on the hub only, on purpose: the owner's subscriptions do not include cloud backups. */
class NotInCloud extends Error {}

/** Why an upload failed, as the archive records it: the cloud's own words when it answered with an error. */
const uploadError = (error: unknown): string =>
  error instanceof CloudCallError && isErrorBody(error.body) ? error.body.error_description : (error as Error).message;

/**
 * Stores an archive in the cloud's backups (createBackup, upload, setBackupComplete with its size, hash and what it
 * holds), when the owner's subscriptions include cloud backups. Answers the cloud's backup id.
 */
async function uploadToCloud(
  context: HubContext,
  path: string,
  archive: { size: number; sha256: string; manifest: BackupManifest },
) {
  const { userId, secret } = await cloudIdentity(context);
  const included = await context.entitlements.cloudBackups();
  if (!included.included) throw new NotInCloud(included.reason);
  const homeyId = context.config.id;
  const { manifest } = archive;
  const created = await context.cloud.call(cloudOperations.backup.createBackup, {
    userId,
    homeyId,
    secret,
    homeyName: manifest.hubName,
    homeyPlatform: hubModels[context.config.model].platform,
    homeyModel: manifest.model,
    version: manifest.softwareVersion,
    channel: readOption(context, 'updates', 'channel', 'stable'),
  });
  const token = new URL(created.url).searchParams.get('token') ?? '';
  await context.cloud.upload(cloudOperations.backup.uploadBackup, { backupId: created._id, token }, createReadStream(path), {
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  await context.cloud.call(cloudOperations.backup.setBackupComplete, {
    userId,
    homeyId,
    backupId: created._id,
    secret,
    size: archive.size,
    hash: archive.sha256,
    meta: { ...manifest.counts, createdAt: manifest.createdAt },
  });
  return created._id;
}

/**
 * Backs the hub up into `<dataDir>/backups/<hub id>-<timestamp>.tar.gz` (see `writeArchive`) and records it; when
 * the hub has a cloud and its owner's subscriptions include cloud backups, the archive is stored there too. A backup
 * that reached only the disk is a successful backup all the same; the record says why the cloud has none.
 */
async function runBackup(context: HubContext, automatic: boolean, running: { value: boolean }) {
  if (running.value) throw new HearthError('conflict', 'A backup is already running');
  running.value = true;
  const directory = backupDirectory(context);
  mkdirSync(directory, { recursive: true });
  const createdAt = new Date(context.clock.now());
  const fileName = `${context.config.id}-${createdAt.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
  const staging = join(directory, `.${randomUUID()}`);
  mkdirSync(staging);
  try {
    const path = join(directory, fileName);
    const archive = await writeArchive(context, path, staging, hubName(context));
    let cloudBackupId: string | null = null;
    let cloudError: string | null = null;
    if (context.config.cloudUrl) {
      try {
        cloudBackupId = await uploadToCloud(context, path, archive);
      } catch (error) {
        cloudError = uploadError(error);
        if (error instanceof NotInCloud) context.journal.log(`info backup ${fileName} kept on the hub only: ${cloudError}`);
        else context.journal.log(`warn backup ${fileName} did not reach the cloud: ${cloudError}`);
        // The cloud says the subscription does not include backups (any more): what the hub kept is out of date.
        if (error instanceof CloudCallError && error.status === 402)
          context.entitlements
            .refresh()
            .catch((refused) =>
              context.journal.log(`warn backup: asking the cloud for entitlements failed: ${(refused as Error).message}`),
            );
      }
    }
    const row: ArchiveRow = {
      id: randomUUID(),
      file_name: fileName,
      size: archive.size,
      sha256: archive.sha256,
      automatic: automatic ? 1 : 0,
      created_at: createdAt.toISOString(),
      cloud_backup_id: cloudBackupId,
      cloud_error: cloudError,
    };
    const removed = transact(context.db, () => {
      context.db
        .prepare(
          `INSERT INTO backup_archive (id, file_name, size, sha256, automatic, created_at, cloud_backup_id, cloud_error)
           VALUES (@id, @file_name, @size, @sha256, @automatic, @created_at, @cloud_backup_id, @cloud_error)`,
        )
        .run(row);
      context.settings.set('backup.option.lastSuccessfulBackup', row.created_at);
      const old = context.db
        .prepare('SELECT * FROM backup_archive ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?')
        .all(KEEP) as ArchiveRow[];
      for (const archive of old) context.db.prepare('DELETE FROM backup_archive WHERE id = ?').run(archive.id);
      return old;
    });
    for (const archive of removed) rmSync(join(directory, archive.file_name), { force: true });
    const archiveRecord = toArchive(row);
    context.events.entity('backup', 'backup', 'create', archiveRecord, 'homey.system.readonly');
    return archiveRecord;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    running.value = false;
  }
}

/** Backups of the hub's database: on demand and nightly (a durable scheduler job) when automatic backups are on. */
export const backupManager: HubManager = {
  name: 'backup',
  migrations,
  create: (context, services) => {
    // The monthly reports count this manager's records through its counter.
    services.activities.register('backups', rowsPerDay(context.db, 'backup_archive', 'created_at'));
    const running = { value: false };
    let stopHandling: (() => void) | undefined;
    const nightlyJob = () => context.scheduler.list({ kind: NIGHTLY_JOB })[0];
    const scheduleNightly = () => {
      context.scheduler.cancelOwner('backup');
      context.scheduler.schedule({
        kind: NIGHTLY_JOB,
        owner: 'backup',
        dueAt: nextNightly(context.clock.now()),
        payload: null,
        misfire: { kind: 'drop', graceMs: NIGHTLY_GRACE_MS },
      });
    };
    return {
      implementations: implement<typeof hubOperations.backup, HubPrincipal>(hubOperations.backup, {
        getState: () => {
          const next = nightlyJob();
          return {
            ...optionValues(context, 'backup', behaviours),
            running: running.value,
            nextAutomaticBackup: next ? new Date(next.dueAt).toISOString() : null,
            archives: (context.db.prepare('SELECT * FROM backup_archive ORDER BY created_at DESC').all() as ArchiveRow[]).map(
              toArchive,
            ),
          };
        },
        ...optionHandlers(context, 'backup', hubOperations.backup, behaviours),
        scheduleBackup: () => runBackup(context, false, running),
        restoreBackup: async ({ body }) => {
          const { backupId, manifest } = await stageRestoreFromCloud(context, body.backupId);
          // The restore replaces the database under every manager: it is applied while the hub is stopped.
          context.bus.emit('hub.restartRequested', { reason: `restore of backup ${backupId}` });
          return { backupId, homeyId: manifest.hubId, createdAt: manifest.createdAt, counts: manifest.counts, restarting: true };
        },
      }),
      start: () => {
        stopHandling = context.scheduler.handle(NIGHTLY_JOB, {
          run: async () => {
            scheduleNightly();
            if (!readOption(context, 'backup', 'automaticBackupsEnabled', true)) return;
            try {
              await runBackup(context, true, running);
            } catch {
              // A failed nightly backup leaves lastSuccessfulBackup as it was; the next night tries again.
            }
          },
          missed: () => scheduleNightly(),
        });
        if (!nightlyJob()) scheduleNightly();
      },
      stop: () => stopHandling?.(),
    };
  },
};
