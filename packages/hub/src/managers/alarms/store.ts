import { randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../../core/clock';
import type { HubDatabase, Migration } from '../../store/database';

export const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Repetition = Record<(typeof weekdays)[number], boolean>;

export interface Alarm {
  id: string;
  name: string;
  time: string;
  enabled: boolean;
  nextOccurance: string | null;
  repetition: Repetition;
}

export const alarmMigrations: Migration[] = [
  {
    id: 'alarms-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE alarm (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        time TEXT NOT NULL,
        enabled INTEGER NOT NULL,
        repetition TEXT NOT NULL,
        next_occurance TEXT,
        created_at TEXT NOT NULL
      )`),
  },
];

interface AlarmRow {
  id: string;
  name: string;
  time: string;
  enabled: number;
  repetition: string;
  next_occurance: string | null;
}

const toAlarm = (row: AlarmRow): Alarm => ({
  id: row.id,
  name: row.name,
  time: row.time,
  enabled: row.enabled === 1,
  nextOccurance: row.next_occurance,
  repetition: JSON.parse(row.repetition) as Repetition,
});

/** Alarms in the hub's database. */
export class AlarmStore {
  constructor(
    private readonly db: HubDatabase,
    private readonly clock: Clock,
  ) {}

  list(): Alarm[] {
    return (this.db.prepare('SELECT * FROM alarm ORDER BY created_at').all() as AlarmRow[]).map(toAlarm);
  }

  get(id: string): Alarm | undefined {
    const row = this.db.prepare('SELECT * FROM alarm WHERE id = ?').get(id) as AlarmRow | undefined;
    return row && toAlarm(row);
  }

  create(alarm: Omit<Alarm, 'id'>): Alarm {
    const id = randomUUID();
    this.db
      .prepare('INSERT INTO alarm (id, name, time, enabled, repetition, next_occurance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(
        id,
        alarm.name,
        alarm.time,
        alarm.enabled ? 1 : 0,
        JSON.stringify(alarm.repetition),
        alarm.nextOccurance,
        isoNow(this.clock),
      );
    return this.get(id) as Alarm;
  }

  save(alarm: Alarm): Alarm {
    this.db
      .prepare('UPDATE alarm SET name = ?, time = ?, enabled = ?, repetition = ?, next_occurance = ? WHERE id = ?')
      .run(alarm.name, alarm.time, alarm.enabled ? 1 : 0, JSON.stringify(alarm.repetition), alarm.nextOccurance, alarm.id);
    return this.get(alarm.id) as Alarm;
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM alarm WHERE id = ?').run(id).changes > 0;
  }
}
