import { type TSchema, Type } from 'typebox';
import { cloudService } from '../operation';
import { DateTime } from './schemas';

const op = cloudService('backup', '/backup');

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Record ids of the cloud: 24 hexadecimal characters. */
const RecordId = Type.String({ pattern: '^[0-9a-f]{24}$' });
/** A credential carried in the query (the wire puts it there): a delegation token, a hub secret, a signed link. */
const QueryCredential = Type.String({ minLength: 1, maxLength: 4000 });

/** Limits of the backup service, enforced by the server. */
export const BACKUP_LIMITS = {
  /** The largest archive a hub may upload, unless the cloud is configured otherwise (`HEARTH_BACKUP_MAX_BYTES`). */
  defaultMaxBytes: 4 * 1024 * 1024 * 1024,
  /** Complete backups kept per hub unless configured otherwise (`HEARTH_BACKUP_RETENTION`); older ones are removed. */
  defaultRetention: 10,
  /** How long an upload or download link stays valid. */
  linkLifetimeSeconds: 3600,
  /** A backup not completed within this time is removed with what was uploaded of it. */
  incompleteLifetimeSeconds: 24 * 3600,
} as const;

/** The delegation-token audience the owner's backup calls (`getMyBackups`, `deleteMyBackup`) take as `token`. */
export const BACKUP_TOKEN_AUDIENCE = 'backup';

/**
 * One backup of a hub. It is listed only once complete: created, its archive uploaded, then completed with the
 * archive's size and SHA-256 hash, which the cloud checks against what it received.
 */
export const Backup = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  userId: Type.String(),
  homeyId: Type.String(),
  homeyName: Type.String(),
  homeyPlatform: Type.String(),
  homeyPlatformVersion: Nullable(Type.Number()),
  homeyModel: Type.String(),
  /** The hub's software version when it made the backup. */
  version: Type.String(),
  channel: Type.String(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('uploaded'), Type.Literal('complete')]),
  size: Nullable(Type.Number()),
  /** SHA-256 of the archive, hexadecimal. */
  hash: Nullable(Type.String()),
  meta: Nullable(Type.Record(Type.String(), Type.Unknown())),
  createdAt: DateTime,
  completedAt: Nullable(DateTime),
});

/** A backup with a link: to upload its archive to (`createBackup`) or to download it from (the other reads). */
export const BackupWithLink = Type.Object({
  ...Backup.properties,
  url: Type.String(),
  urlExpiresAt: DateTime,
});

const UserBackupParams = Type.Object({ userId: RecordId, homeyId: RecordId });
const HubSecret = Type.Object({ secret: QueryCredential });
const OwnerToken = Type.Object({ token: QueryCredential });

const hubSecretText =
  '`secret` is the hub’s secret (`hubSecret` of `@hearth/contract/hub-secret`): it names the hub, which must belong to `userId` in the hub registry.';

/** Backups of hubs under `/backup`: a hub creates, uploads and completes them; its owner lists, downloads and deletes them. */
export const backupServiceOperations = {
  getMyBackups: op({
    name: 'getMyBackups',
    method: 'GET',
    path: '/user/me',
    scope: null,
    auth: false,
    query: OwnerToken,
    response: Type.Array(BackupWithLink),
    errors: ['forbidden'],
    summary: 'The complete backups of every hub of the signed-in user, newest first, each with a download link.',
    description: `\`token\` is a delegation token of the user for the audience \`${BACKUP_TOKEN_AUDIENCE}\` (\`POST /cloud/delegation/token\`); it is the call's credential, so no other is needed.`,
  }),
  deleteMyBackup: op({
    name: 'deleteMyBackup',
    method: 'DELETE',
    path: '/user/me/homey/:homeyId/backup/:backupId',
    scope: null,
    auth: false,
    params: Type.Object({ homeyId: RecordId, backupId: RecordId }),
    query: OwnerToken,
    errors: ['forbidden', 'not_found'],
    summary: 'Deletes one backup of one of the signed-in user’s hubs, with its archive.',
    description: `\`token\` is a delegation token of the user for the audience \`${BACKUP_TOKEN_AUDIENCE}\`.`,
  }),
  getBackups: op({
    name: 'getBackups',
    method: 'GET',
    path: '/user/:userId',
    scope: null,
    auth: false,
    params: Type.Object({ userId: RecordId }),
    query: HubSecret,
    response: Type.Array(Backup),
    errors: ['forbidden', 'not_found'],
    summary: 'The complete backups of every hub of `userId`, newest first: what a hub of theirs may restore from.',
    description: hubSecretText,
  }),
  deleteBackups: op({
    name: 'deleteBackups',
    method: 'DELETE',
    path: '/user/:userId',
    scope: null,
    params: Type.Object({ userId: RecordId }),
    errors: ['forbidden'],
    summary: 'Deletes every backup of `userId` with their archives: the user themself, or the provider (an account removed).',
    description: 'Needs no scope: it acts only on the caller’s own backups (or any, for the provider’s internal client).',
  }),
  getBackup: op({
    name: 'getBackup',
    method: 'GET',
    path: '/user/:userId/backup/:backupId',
    scope: null,
    auth: false,
    params: Type.Object({ userId: RecordId, backupId: RecordId }),
    query: HubSecret,
    response: BackupWithLink,
    errors: ['forbidden', 'not_found'],
    summary: 'One complete backup of `userId` with a link to download its archive (valid for an hour), for a hub restoring it.',
    description: hubSecretText,
  }),
  createBackup: op({
    name: 'createBackup',
    method: 'POST',
    path: '/user/:userId/homey/:homeyId',
    scope: null,
    auth: false,
    params: UserBackupParams,
    query: HubSecret,
    body: Type.Object({
      homeyName: Type.Optional(Type.String({ maxLength: 200 })),
      homeyPlatform: Type.Optional(Type.String({ maxLength: 50 })),
      homeyPlatformVersion: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
      homeyModel: Type.Optional(Type.String({ maxLength: 100 })),
      version: Type.Optional(Type.String({ maxLength: 64 })),
      channel: Type.Optional(Type.String({ maxLength: 50 })),
    }),
    response: BackupWithLink,
    successStatus: 201,
    errors: ['forbidden', 'not_found', 'subscription_required'],
    summary:
      'Starts a backup of hub `homeyId` of `userId` and answers the link to upload its archive to (`PUT`, `application/octet-stream`); then `setBackupComplete`.',
    description: `${hubSecretText} Keeping backups in the cloud needs a subscription of the owner that includes them on this hub (\`getHomeyEntitlements\` of the store says whether it does): without one the call is refused with 402 \`subscription_required\` and nothing is stored.`,
  }),
  setBackupComplete: op({
    name: 'setBackupComplete',
    method: 'PUT',
    path: '/user/:userId/homey/:homeyId/backup/:backupId/complete',
    scope: null,
    auth: false,
    params: Type.Object({ userId: RecordId, homeyId: RecordId, backupId: RecordId }),
    query: HubSecret,
    body: Type.Object({
      size: Type.Integer({ minimum: 0 }),
      hash: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
      meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
    response: Backup,
    errors: ['forbidden', 'not_found', 'conflict', 'invalid_parameter'],
    summary:
      'Completes a backup whose archive was uploaded: `size` and `hash` (SHA-256, hexadecimal) must be those of the archive the cloud received. Older backups of the hub past the retention are removed.',
    description: hubSecretText,
  }),
  uploadBackup: op({
    name: 'uploadBackup',
    method: 'PUT',
    path: '/upload/:backupId',
    scope: null,
    auth: false,
    params: Type.Object({ backupId: RecordId }),
    query: Type.Object({ token: QueryCredential }),
    response: Type.Object({ size: Type.Number(), hash: Type.String() }),
    errors: ['forbidden', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type'],
    summary:
      'Uploads the archive of a backup to the link `createBackup` answered: the raw bytes as `application/octet-stream`, streamed to storage. Answers the size and SHA-256 received. Uploading again replaces the archive until the backup is complete.',
    description: 'The link’s `token` is the credential: it names the backup and expires with the link.',
  }),
  downloadBackup: op({
    name: 'downloadBackup',
    method: 'GET',
    path: '/download/:backupId',
    scope: null,
    auth: false,
    params: Type.Object({ backupId: RecordId }),
    query: Type.Object({ token: QueryCredential }),
    errors: ['forbidden', 'not_found'],
    summary:
      'Downloads the archive of a complete backup from a link `getBackup` or `getMyBackups` answered (`application/octet-stream`).',
    description: 'The link’s `token` is the credential: it names the backup and expires with the link.',
  }),
} as const;
