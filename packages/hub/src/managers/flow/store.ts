import type { Migration } from '../../store/database';

export { DocumentStore } from '../documents';
export const flowMigrations: Migration[] = [
  {
    id: 'flow-001-create',
    up: (db) => {
      for (const table of ['flow_flow', 'flow_advanced', 'flow_folder', 'flow_share']) {
        db.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL)`);
      }
    },
  },
];
