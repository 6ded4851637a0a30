import { createHash } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import { BACKUP_LIMITS, HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { Selectable } from 'kysely';
import type { CloudContext } from '../../platform/context';
import { newId } from '../../platform/tokens';
import { type RegisteredHub, registeredHub } from '../cloud/registry';
import type { BackupsTable } from './tables';

type BackupRow = Selectable<BackupsTable>;

/** A backup as the wire shows it. */
export function toBackup(row: BackupRow) {
  return {
    _id: row.id,
    id: row.id,
    userId: row.user_id,
    homeyId: row.hub_id,
    homeyName: row.homey_name,
    homeyPlatform: row.homey_platform,
    homeyPlatformVersion: row.homey_platform_version,
    homeyModel: row.homey_model,
    version: row.version,
    channel: row.channel,
    state: row.state,
    size: row.size === null ? null : Number(row.size),
    hash: row.hash,
    meta: row.meta,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
  };
}

export interface BackupInput {
  homeyName?: string | undefined;
  homeyPlatform?: string | undefined;
  homeyPlatformVersion?: number | undefined;
  homeyModel?: string | undefined;
  version?: string | undefined;
  channel?: string | undefined;
}

/**
 * Counts and hashes what streams through, and fails with 413 past `limit` bytes: the archive is measured on its
 * way to storage, never held whole.
 */
function measure(limit: number) {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(new HearthError('payload_too_large', `A backup archive may be at most ${limit} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, hash: hash.digest('hex') }) };
}

/** The backups' rows and archives: what the routes do, apart from checking who calls. */
export function backupStore(context: CloudContext) {
  const { db } = context.database;
  const { blobs } = context;
  const maxBytes = context.config.backupMaxBytes ?? BACKUP_LIMITS.defaultMaxBytes;
  const retention = context.config.backupRetention ?? BACKUP_LIMITS.defaultRetention;

  /** Removes archives whose rows are gone; a blob that cannot be removed now is only space, never a listed backup. */
  const removeBlobs = async (keys: (string | null)[]) => {
    for (const key of keys)
      if (key)
        await blobs.delete(key).catch((error) => context.log.warn({ err: error, key }, 'backup: removing an archive failed'));
  };

  const completeOf = (where: { userId?: string; hubId?: string }) => {
    let query = db.selectFrom('backups').selectAll().where('state', '=', 'complete');
    if (where.userId) query = query.where('user_id', '=', where.userId);
    if (where.hubId) query = query.where('hub_id', '=', where.hubId);
    return query.orderBy('completed_at', 'desc').orderBy('id', 'desc');
  };

  return {
    /** Refuses unless `hubId` is registered and `userId` owns it. */
    async checkHubOwner(hubId: string, userId: string): Promise<RegisteredHub> {
      const hub = await registeredHub(db, hubId);
      if (!hub) throw notFound('Hub', hubId);
      if (hub.owner_user_id !== userId) throw new HearthError('forbidden', 'This hub does not belong to that account');
      return hub;
    },

    /** Complete backups of a user, newest first. */
    listComplete: (userId: string) => completeOf({ userId }).execute(),

    async completeBackup(userId: string, backupId: string) {
      const row = await completeOf({ userId }).where('id', '=', backupId).executeTakeFirst();
      if (!row) throw notFound('Backup', backupId);
      return row;
    },

    async create(userId: string, hub: RegisteredHub, input: BackupInput) {
      const row = await db
        .insertInto('backups')
        .values({
          id: newId(),
          user_id: userId,
          hub_id: hub.id,
          homey_name: input.homeyName ?? hub.name,
          homey_platform: input.homeyPlatform ?? hub.platform,
          homey_platform_version: input.homeyPlatformVersion ?? null,
          homey_model: input.homeyModel ?? hub.model,
          version: input.version ?? hub.software_version,
          channel: input.channel ?? 'stable',
          state: 'pending',
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return row;
    },

    /**
     * Streams an upload to a blob of its own, measuring it on the way, then points the backup at it; the blob it
     * pointed at before (an earlier upload) is removed. A backup completed meanwhile keeps its archive.
     */
    async upload(backupId: string, body: unknown, declaredLength: number | null) {
      const before = await db.selectFrom('backups').select('state').where('id', '=', backupId).executeTakeFirst();
      if (!before) throw notFound('Backup', backupId);
      if (before.state === 'complete')
        throw new HearthError('conflict', 'This backup is complete: its archive can no longer change');
      if (!body || typeof (body as Readable).pipe !== 'function')
        throw new HearthError(
          'unsupported_media_type',
          'Send the archive as the raw body with Content-Type: application/octet-stream',
        );
      if (declaredLength !== null && declaredLength > maxBytes)
        throw new HearthError('payload_too_large', `A backup archive may be at most ${maxBytes} bytes`);
      const key = `backups/${backupId}/${newId()}`;
      const measured = measure(maxBytes);
      // `pipeline` hands back its last stream and destroys every stream of it when one fails.
      await blobs.put(
        key,
        pipeline(body as Readable, measured.stream, () => undefined),
      );
      const { size, hash } = measured.result();
      const replaced = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('backups')
          .select(['state', 'blob_key'])
          .where('id', '=', backupId)
          .forUpdate()
          .executeTakeFirst();
        if (!row || row.state === 'complete') return { conflict: true, key };
        await trx
          .updateTable('backups')
          .set({ state: 'uploaded', blob_key: key, uploaded_size: size, uploaded_hash: hash })
          .where('id', '=', backupId)
          .execute();
        return { conflict: false, key: row.blob_key };
      });
      await removeBlobs([replaced.key]);
      if (replaced.conflict) throw new HearthError('conflict', 'This backup was completed or removed during the upload');
      return { size, hash };
    },

    /**
     * Completes a backup whose uploaded archive has the size and hash the hub names, then removes the hub's complete
     * backups beyond the newest `retention`.
     */
    async complete(userId: string, hubId: string, backupId: string, claim: { size: number; hash: string; meta?: object }) {
      const hash = claim.hash.toLowerCase();
      const row = await db
        .selectFrom('backups')
        .selectAll()
        .where('id', '=', backupId)
        .where('user_id', '=', userId)
        .where('hub_id', '=', hubId)
        .executeTakeFirst();
      if (!row) throw notFound('Backup', backupId);
      if (row.state === 'complete') {
        if (row.hash === hash && Number(row.size) === claim.size) return row;
        throw new HearthError('conflict', 'This backup is already complete with another archive');
      }
      if (row.state !== 'uploaded') throw new HearthError('conflict', 'Upload the archive before completing the backup');
      if (Number(row.uploaded_size) !== claim.size)
        throw invalidParameter('size', `The archive the cloud received has ${row.uploaded_size} bytes, not ${claim.size}.`);
      if (row.uploaded_hash !== hash)
        throw invalidParameter('hash', `The archive the cloud received has SHA-256 ${row.uploaded_hash}, not ${hash}.`);
      const completed = await db
        .updateTable('backups')
        .set({
          state: 'complete',
          size: claim.size,
          hash,
          meta: claim.meta === undefined ? null : JSON.stringify(claim.meta),
          completed_at: new Date(context.clock.now()),
        })
        .where('id', '=', backupId)
        .where('state', '=', 'uploaded')
        .where('uploaded_hash', '=', hash)
        .returningAll()
        .executeTakeFirst();
      if (!completed) throw new HearthError('conflict', 'The archive changed while the backup was completed: complete it again');
      const beyond = await completeOf({ hubId }).offset(retention).limit(1000).select('id').execute();
      if (beyond.length > 0) {
        const removed = await db
          .deleteFrom('backups')
          .where(
            'id',
            'in',
            beyond.map((b) => b.id),
          )
          .returning('blob_key')
          .execute();
        await removeBlobs(removed.map((r) => r.blob_key));
      }
      return completed;
    },

    /** Deletes backups (all of a user's, or one of a hub of theirs) with their archives; answers how many. */
    async remove(where: { userId: string; hubId?: string; backupId?: string }) {
      let query = db.deleteFrom('backups').where('user_id', '=', where.userId);
      if (where.hubId) query = query.where('hub_id', '=', where.hubId);
      if (where.backupId) query = query.where('id', '=', where.backupId);
      const removed = await query.returning('blob_key').execute();
      await removeBlobs(removed.map((r) => r.blob_key));
      return removed.length;
    },

    /** The archive of a complete backup, as a stream. */
    async archive(backupId: string) {
      const row = await db.selectFrom('backups').select(['blob_key', 'state']).where('id', '=', backupId).executeTakeFirst();
      const blob = row?.state === 'complete' && row.blob_key ? await blobs.get(row.blob_key) : null;
      if (!blob) throw notFound('Backup', backupId);
      return blob;
    },

    /** Removes backups never completed within `olderThanMs`, with what was uploaded of them. */
    async sweepIncomplete(olderThanMs = BACKUP_LIMITS.incompleteLifetimeSeconds * 1000) {
      const removed = await db
        .deleteFrom('backups')
        .where('state', '<>', 'complete')
        .where('created_at', '<', new Date(context.clock.now() - olderThanMs))
        .returning('blob_key')
        .execute();
      await removeBlobs(removed.map((r) => r.blob_key));
      return removed.length;
    },
  };
}

export type BackupStore = ReturnType<typeof backupStore>;
