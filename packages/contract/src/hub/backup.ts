import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, Nullable } from './options';

const op = hubManager('backup');

export const BackupArchive = Type.Object({
  id: Type.String(),
  fileName: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  createdAt: Type.String(),
  automatic: Type.Boolean(),
  /** The backup's id in the cloud once the archive is stored there, else `null`. */
  cloudBackupId: Nullable(Type.String()),
  /** Why the archive did not reach the cloud, when the hub has one and it did not. */
  cloudError: Nullable(Type.String()),
});

/** A backup from the cloud staged to replace the hub's data at its next start. */
export const StagedRestore = Type.Object({
  backupId: Type.String(),
  /** The hub the backup was made of. */
  homeyId: Type.String(),
  createdAt: Type.String(),
  counts: Type.Record(Type.String(), Type.Number()),
  /** The hub restarts to apply it. */
  restarting: Type.Boolean(),
});

export const backupOptions = {
  automaticBackupsEnabled: { value: Type.Boolean(), read: 'homey.system.readonly', write: 'homey.system' },
  lastSuccessfulBackup: {
    value: Nullable(Type.String({ format: 'date-time' })),
    read: 'homey.system.readonly',
    // The wire lists no scope for writes; the hub records its backups here, and a caller that could rewrite it
    // would hide a missing backup.
    write: 'homey.system',
  },
} as const;

export const backupOperations = {
  getState: declareState(op),
  ...declareOptions(op, backupOptions),
  scheduleBackup: op({
    name: 'scheduleBackup',
    method: 'POST',
    path: '/backup',
    scope: 'homey.system',
    response: BackupArchive,
    summary:
      "Backs the hub up now (its database, settings included, and its apps' userdata) into a compressed archive in the hub's data directory and, when the hub has a cloud and an owner there, into the cloud's backups.",
  }),
  restoreBackup: op({
    name: 'restoreBackup',
    method: 'POST',
    path: '/restore',
    scope: 'homey.system',
    body: Type.Object({ backupId: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
    response: StagedRestore,
    errors: ['conflict', 'unavailable', 'not_found'],
    summary:
      "Restores a backup of the owner's from the cloud: downloads it, checks its SHA-256, and restarts the hub, which replaces its zones, devices, flows, variables, users, settings and apps' userdata with the backup's (keeping its own id).",
  }),
} as const;

/** Wire events of the backup manager. */
export const backupEvents = managerEvents('backup', {
  events: { ...optionEvents, 'backup.create': BackupArchive },
});
