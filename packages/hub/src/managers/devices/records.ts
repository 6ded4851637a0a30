import type { CapabilityOptions } from '../../runtime/capabilities';
import { type HubDatabase, type Migration, rollbackEpoch } from '../../store/database';

export const deviceMigrations: Migration[] = [
  {
    id: 'devices-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE device (
        id TEXT PRIMARY KEY,
        driver_id TEXT NOT NULL,
        app_id TEXT NOT NULL,
        name TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        zone TEXT NOT NULL,
        data TEXT NOT NULL,
        store TEXT NOT NULL DEFAULT '{}',
        settings TEXT NOT NULL DEFAULT '{}',
        class TEXT NOT NULL,
        virtual_class TEXT,
        icon_override TEXT,
        ui_indicator TEXT,
        hidden INTEGER NOT NULL DEFAULT 0,
        capabilities TEXT NOT NULL,
        capabilities_options TEXT NOT NULL DEFAULT '{}',
        energy TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX device_app ON device (app_id);
      CREATE INDEX device_zone ON device (zone);
      CREATE TABLE device_capability (
        device_id TEXT NOT NULL REFERENCES device (id) ON DELETE CASCADE,
        capability_id TEXT NOT NULL,
        value TEXT,
        last_updated INTEGER,
        PRIMARY KEY (device_id, capability_id)
      ) WITHOUT ROWID`),
  },
  {
    // What an app said of its device: unavailable (with the message users see) and a warning.
    id: 'devices-002-app-status',
    up: (db) => db.exec('ALTER TABLE device ADD COLUMN unavailable_message TEXT; ALTER TABLE device ADD COLUMN warning TEXT'),
  },
];

export interface DeviceRow {
  id: string;
  driver_id: string;
  app_id: string;
  name: string;
  note: string;
  zone: string;
  data: string;
  store: string;
  settings: string;
  class: string;
  virtual_class: string | null;
  icon_override: string | null;
  ui_indicator: string | null;
  hidden: number;
  capabilities: string;
  capabilities_options: string;
  energy: string | null;
  created_at: string;
  unavailable_message: string | null;
  warning: string | null;
}

export interface DeviceRecord {
  readonly id: string;
  readonly driverId: string;
  readonly appId: string;
  readonly name: string;
  readonly note: string;
  readonly zone: string;
  readonly data: Record<string, unknown>;
  readonly store: Record<string, unknown>;
  readonly settings: Record<string, unknown>;
  readonly class: string;
  readonly virtualClass: string | null;
  readonly iconOverride: string | null;
  readonly uiIndicator: string | null;
  readonly hidden: boolean;
  readonly capabilities: readonly string[];
  readonly capabilitiesOptions: Record<string, CapabilityOptions>;
  readonly energy: Record<string, unknown> | null;
  readonly createdAt: string;
  /** Set by the device's app: the device is unavailable, with this message; `null` when available. */
  readonly unavailableMessage: string | null;
  readonly warning: string | null;
}

export const toRecord = (row: DeviceRow): DeviceRecord => ({
  id: row.id,
  driverId: row.driver_id,
  appId: row.app_id,
  name: row.name,
  note: row.note,
  zone: row.zone,
  data: JSON.parse(row.data),
  store: JSON.parse(row.store),
  settings: JSON.parse(row.settings),
  class: row.class,
  virtualClass: row.virtual_class,
  iconOverride: row.icon_override,
  uiIndicator: row.ui_indicator,
  hidden: row.hidden === 1,
  capabilities: JSON.parse(row.capabilities),
  capabilitiesOptions: JSON.parse(row.capabilities_options),
  energy: row.energy === null ? null : JSON.parse(row.energy),
  createdAt: row.created_at,
  unavailableMessage: row.unavailable_message,
  warning: row.warning,
});

/** The devices a group device stands for (`data.groupDevices`), or `null` for a device that is not a group. */
export const groupMembers = (device: DeviceRecord): string[] | null =>
  Array.isArray(device.data.groupDevices) ? (device.data.groupDevices as string[]) : null;

/** What pairing hands over to create a device (seed: "Pair device"). */
export interface NewDevice {
  name: string;
  data: Record<string, unknown>;
  zone?: string;
  store?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  capabilities?: string[];
  capabilitiesOptions?: Record<string, CapabilityOptions>;
  class?: string;
  iconOverride?: string | null;
  energy?: Record<string, unknown>;
  /** The capabilities start without a value (a real device that has not reported yet), not with a simulated one. */
  unreported?: boolean;
}

/**
 * What is parsed of the device tables, by device id, read once: every capability write and every flow reads it.
 * It is forgotten all at once when a group of changes is undone after it was read (the database's rollback epoch).
 */
export class DeviceCache<T> {
  readonly #entries = new Map<string, T>();
  #epoch = 0;

  constructor(private readonly db: HubDatabase) {}

  /** The entries, emptied first when the database undid changes since the last look. */
  fresh(): Map<string, T> {
    const epoch = rollbackEpoch(this.db);
    if (epoch !== this.#epoch) {
      this.#entries.clear();
      this.#epoch = epoch;
    }
    return this.#entries;
  }

  forget(id: string): void {
    this.#entries.delete(id);
  }
}
