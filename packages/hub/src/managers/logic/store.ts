import { randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../../core/clock';
import type { HubDatabase, Migration } from '../../store/database';

export type VariableValue = string | number | boolean;

export interface Variable {
  id: string;
  name: string;
  type: string;
  value: VariableValue;
}

export const logicMigrations: Migration[] = [
  {
    id: 'logic-001-create',
    up: (db) => {
      db.exec(`CREATE TABLE logic_variable (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`);
      db.exec(`CREATE TABLE logic_webhook_event (
        id TEXT PRIMARY KEY,
        event TEXT NOT NULL,
        tag TEXT,
        received_at TEXT NOT NULL
      )`);
    },
  },
];

interface VariableRow {
  id: string;
  name: string;
  type: string;
  value: string;
}

const toVariable = (row: VariableRow): Variable => ({
  id: row.id,
  name: row.name,
  type: row.type,
  value: JSON.parse(row.value) as VariableValue,
});

/** The type a variable's value must have: the older names, and the newer letters (see the contract). */
export function valueKind(type: string): 'string' | 'number' | 'boolean' {
  if (type === 'string' || type === 'boolean') return type;
  return 'number';
}

export class VariableStore {
  constructor(
    private readonly db: HubDatabase,
    private readonly clock: Clock,
  ) {}

  list(): Variable[] {
    return (this.db.prepare('SELECT * FROM logic_variable ORDER BY created_at').all() as VariableRow[]).map(toVariable);
  }

  get(id: string): Variable | undefined {
    const row = this.db.prepare('SELECT * FROM logic_variable WHERE id = ?').get(id) as VariableRow | undefined;
    return row && toVariable(row);
  }

  create(variable: Omit<Variable, 'id'>): Variable {
    const id = randomUUID();
    this.db
      .prepare('INSERT INTO logic_variable (id, name, type, value, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, variable.name, variable.type, JSON.stringify(variable.value), isoNow(this.clock));
    return this.get(id) as Variable;
  }

  save(variable: Variable): Variable {
    this.db
      .prepare('UPDATE logic_variable SET name = ?, type = ?, value = ? WHERE id = ?')
      .run(variable.name, variable.type, JSON.stringify(variable.value), variable.id);
    return this.get(variable.id) as Variable;
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM logic_variable WHERE id = ?').run(id).changes > 0;
  }

  recordWebhook(event: string, tag: string | null) {
    const entry = { id: randomUUID(), event, tag, receivedAt: isoNow(this.clock) };
    this.db
      .prepare('INSERT INTO logic_webhook_event (id, event, tag, received_at) VALUES (?, ?, ?, ?)')
      .run(entry.id, event, tag, entry.receivedAt);
    // Keep the most recent 100 calls.
    this.db
      .prepare(
        'DELETE FROM logic_webhook_event WHERE id NOT IN (SELECT id FROM logic_webhook_event ORDER BY received_at DESC LIMIT 100)',
      )
      .run();
    return entry;
  }

  webhookCount(): number {
    return this.db.prepare('SELECT COUNT(*) FROM logic_webhook_event').pluck().get() as number;
  }
}
