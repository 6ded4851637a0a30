import { cloudOperations, HearthError } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { requireSelf } from '../../platform/auth';
import type { CloudPrincipal } from '../../platform/context';
import { type DelegationKeys, loadDelegationKeys } from '../cloud/delegation';
import type { CloudService } from '../service';
import { requireCloudBackups } from '../store/entitlements';
import { backupCredentials } from './credentials';
import { backupStore, toBackup } from './store';

const backupOps = cloudOperations.backup;

/** Incomplete backups are looked for hourly, by one node of the cloud. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
export const BACKUP_SWEEP = 'backup-incomplete';

/**
 * Backups of hubs under `/backup`. A hub (by its secret) whose owner's subscriptions include cloud backups (see the
 * store's `hubEntitlements`) creates a backup, uploads the archive to the link it gets
 * (streamed to the blob store, measured on the way) and completes it with the archive's size and hash, which must
 * match what arrived; only then is it listed. Its owner (by a delegation token) lists, downloads and deletes them;
 * a hub of theirs lists and downloads them to restore one.
 */
export const backupService: CloudService = {
  name: 'backup',
  create: (context) => {
    const state: { keys: DelegationKeys | null } = { keys: null };
    return {
      implementations: () => {
        const credentials = backupCredentials(context, () => {
          if (!state.keys) throw new Error('The backup service has not started');
          return state.keys;
        });
        const store = backupStore(context);
        const withLink = async (kind: 'upload' | 'download', row: Parameters<typeof toBackup>[0]) => ({
          ...toBackup(row),
          ...(await credentials.link(kind, row.id)),
        });

        return implement<typeof backupOps, CloudPrincipal>(backupOps, {
          getMyBackups: async ({ query }) => {
            const userId = await credentials.ownerOf(query.token);
            return Promise.all((await store.listComplete(userId)).map((row) => withLink('download', row)));
          },
          deleteMyBackup: async ({ params, query }) => {
            const userId = await credentials.ownerOf(query.token);
            const removed = await store.remove({ userId, hubId: params.homeyId, backupId: params.backupId });
            if (removed === 0) throw new HearthError('not_found', `Backup not found: ${params.backupId}`);
          },
          getBackups: async ({ params, query }) => {
            await store.checkHubOwner(credentials.hubOf(query.secret), params.userId);
            return (await store.listComplete(params.userId)).map(toBackup);
          },
          deleteBackups: async ({ params, principal }) => {
            requireSelf(principal, params.userId);
            await store.remove({ userId: params.userId });
          },
          getBackup: async ({ params, query }) => {
            await store.checkHubOwner(credentials.hubOf(query.secret), params.userId);
            return withLink('download', await store.completeBackup(params.userId, params.backupId));
          },
          createBackup: async ({ params, query, body }) => {
            if (credentials.hubOf(query.secret) !== params.homeyId)
              throw new HearthError('forbidden', 'The secret is not this hub’s');
            const hub = await store.checkHubOwner(params.homeyId, params.userId);
            // Keeping backups in the cloud is what a subscription pays for: checked before anything is stored.
            await requireCloudBackups(context.database.db, hub.id, new Date(context.clock.now()));
            return withLink('upload', await store.create(params.userId, hub, body));
          },
          setBackupComplete: async ({ params, query, body }) => {
            if (credentials.hubOf(query.secret) !== params.homeyId)
              throw new HearthError('forbidden', 'The secret is not this hub’s');
            await store.checkHubOwner(params.homeyId, params.userId);
            return toBackup(await store.complete(params.userId, params.homeyId, params.backupId, body));
          },
          uploadBackup: async ({ params, query, request, reply }) => {
            await credentials.checkLink('upload', params.backupId, query.token);
            const length = request.headers['content-length'] ? Number(request.headers['content-length']) : null;
            try {
              return await store.upload(params.backupId, request.body, length);
            } catch (error) {
              // The rest of a refused body is not read: close the connection after the answer instead of draining it.
              if (!request.raw.readableEnded) reply.header('connection', 'close');
              throw error;
            }
          },
          downloadBackup: async ({ params, query, reply }) => {
            await credentials.checkLink('download', params.backupId, query.token);
            const archive = await store.archive(params.backupId);
            return reply
              .type('application/octet-stream')
              .header('content-length', archive.size)
              .header('content-disposition', `attachment; filename="hearth-backup-${params.backupId}.tar.gz"`)
              .header('cache-control', 'private, no-store')
              .header('x-content-type-options', 'nosniff')
              .send(archive.body);
          },
        });
      },
      routes: (app) => {
        // Archives arrive as raw bytes and are streamed to storage by the handler: hand the stream over unparsed.
        if (!app.hasContentTypeParser('application/octet-stream')) {
          app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
        }
      },
      start: async () => {
        state.keys = await loadDelegationKeys(context);
        const store = backupStore(context);
        context.sweeps.every(BACKUP_SWEEP, SWEEP_INTERVAL_MS, () => store.sweepIncomplete());
      },
    };
  },
};
