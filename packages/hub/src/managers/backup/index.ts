import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { Cron } from 'croner';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { commitPendingChanges, type Migration, transact } from '../../store/database';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';
import { rowsPerDay } from '../reports/activities';

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
}

const toArchive = (row: ArchiveRow) => ({
  id: row.id,
  fileName: row.file_name,
  size: row.size,
  sha256: row.sha256,
  createdAt: row.created_at,
  automatic: row.automatic === 1,
});

export const backupDirectory = (context: HubContext): string => join(context.config.dataDir, 'backups');

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Backs the database up with SQLite's online backup API (a consistent copy while the hub keeps writing), then
 * gzips it into `<dataDir>/backups/<hub id>-<timestamp>.db.gz` and records it.
 */
async function runBackup(context: HubContext, automatic: boolean, running: { value: boolean }) {
  if (running.value) throw new HearthError('conflict', 'A backup is already running');
  running.value = true;
  const directory = backupDirectory(context);
  mkdirSync(directory, { recursive: true });
  const createdAt = new Date(context.clock.now());
  const fileName = `${context.config.id}-${createdAt.toISOString().replace(/[:.]/g, '-')}.db.gz`;
  const copy = join(directory, `.${randomUUID()}.db`);
  try {
    commitPendingChanges(context.db); // the copy holds committed changes only
    await context.db.backup(copy);
    await pipeline(createReadStream(copy), createGzip(), createWriteStream(join(directory, fileName)));
    const path = join(directory, fileName);
    const row: ArchiveRow = {
      id: randomUUID(),
      file_name: fileName,
      size: statSync(path).size,
      sha256: await sha256(path),
      automatic: automatic ? 1 : 0,
      created_at: createdAt.toISOString(),
    };
    const removed = transact(context.db, () => {
      context.db
        .prepare(
          'INSERT INTO backup_archive (id, file_name, size, sha256, automatic, created_at) VALUES (@id, @file_name, @size, @sha256, @automatic, @created_at)',
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
    const archive = toArchive(row);
    context.events.entity('backup', 'backup', 'create', archive, 'homey.system.readonly');
    return archive;
  } finally {
    rmSync(copy, { force: true });
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
