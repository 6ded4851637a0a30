import { Type } from 'typebox';
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
});

export const backupOptions = {
  automaticBackupsEnabled: { value: Type.Boolean(), read: 'homey.system.readonly', write: 'homey.system' },
  lastSuccessfulBackup: {
    value: Nullable(Type.String({ format: 'date-time' })),
    read: 'homey.system.readonly',
    write: null,
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
    summary: "Backs the hub's database up now into a compressed archive in the hub's data directory.",
  }),
} as const;
