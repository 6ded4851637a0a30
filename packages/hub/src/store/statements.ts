import type { Statement } from 'better-sqlite3';
import type { HubDatabase } from './database';

/**
 * Prepared statements of one store, prepared once (preparing costs more than running most of them), and a
 * count of the writes they ran: `version` changes whenever the store may have changed, so a cache of what it
 * holds knows when to read again.
 */
export class Statements {
  private readonly prepared = new Map<string, Statement>();
  private writes = 0;

  constructor(private readonly db: HubDatabase) {}

  /** Increases with every write statement run (also one rolled back): compare it, never read meaning into it. */
  get version(): number {
    return this.writes;
  }

  get(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (!statement.reader) {
        const run = statement.run.bind(statement);
        statement.run = ((...args: unknown[]) => {
          this.writes += 1;
          return run(...args);
        }) as Statement['run'];
      }
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}
