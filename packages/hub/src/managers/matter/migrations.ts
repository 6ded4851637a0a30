import type { Migration } from '../../store/database';
import { driverFullId } from '../apps/catalogue';
import { MATTER_DRIVER_ID } from './fabric';

/** The Matter manager's schema changes (after the devices manager's: they touch its table). */
export const matterMigrations: readonly Migration[] = [
  {
    // The cluster-based driver was first named `matteronoff`, though it makes every supported device type.
    id: 'matter-001-cluster-driver-id',
    up: (db) => {
      db.prepare('UPDATE device SET driver_id = ? WHERE driver_id = ?').run(
        MATTER_DRIVER_ID,
        driverFullId('com.hearth.virtual', 'matteronoff'),
      );
    },
  },
];
