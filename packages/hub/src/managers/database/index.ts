import { statSync } from 'node:fs';
import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { databasePath } from '../../config';
import { isoNow } from '../../core/clock';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { commitPendingChanges } from '../../store/database';

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The database's bytes on disk: the main file plus its write-ahead log. */
const sizeOnDisk = (context: HubContext): number => {
  const path = databasePath(context.config);
  return fileSize(path) + fileSize(`${path}-wal`);
};

function state(context: HubContext) {
  const pragma = (name: string) => context.db.pragma(name, { simple: true }) as number;
  return {
    sizeOnDisk: sizeOnDisk(context),
    pageSize: pragma('page_size'),
    pageCount: pragma('page_count'),
    freePages: pragma('freelist_count'),
    journalMode: context.db.pragma('journal_mode', { simple: true }) as string,
    lastOptimized: context.settings.get<string | null>('database.lastOptimized', null),
  };
}

/** The hub's SQLite database: its size and an on-demand optimisation. */
export const databaseManager: HubManager = {
  name: 'database',
  create: (context) => ({
    implementations: implement<typeof hubOperations.database, HubPrincipal>(hubOperations.database, {
      getState: () => state(context),
      optimize: () => {
        const started = performance.now();
        const sizeBefore = sizeOnDisk(context);
        commitPendingChanges(context.db); // VACUUM cannot run inside the open group of changes
        context.db.exec('VACUUM');
        context.db.pragma('optimize');
        context.db.pragma('wal_checkpoint(TRUNCATE)');
        context.settings.set('database.lastOptimized', isoNow(context.clock));
        return { sizeBefore, sizeAfter: sizeOnDisk(context), durationMs: Math.round(performance.now() - started) };
      },
    }),
  }),
};
