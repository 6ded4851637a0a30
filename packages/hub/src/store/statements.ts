import type { Statement } from 'better-sqlite3';
import { type HubDatabase, rollbackEpoch } from './database';

/**
 * Prepared statements of one store, prepared once (preparing costs more than running most of them), and a
 * count of the writes they ran: `version` changes whenever the store may have changed, so a cache of what it
 * holds knows when to read again.
 */
export class Statements {
  private readonly prepared = new Map<string, Statement>();
  private writes = 0;

  constructor(private readonly db: HubDatabase) {}

  /**
   * Increases with every write statement run (also one rolled back) and every group of changes undone after
   * it was made: compare it, never read meaning into it.
   */
  get version(): number {
    return this.writes + rollbackEpoch(this.db);
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

/** A store over SQL tables whose `version` tells caches when it may have changed. */
export abstract class SqlStore {
  private readonly statements: Statements;

  constructor(db: HubDatabase) {
    this.statements = new Statements(db);
  }

  /** Changes whenever a write may have changed the store (see {@link Statements.version}). */
  get version(): number {
    return this.statements.version;
  }

  protected statement(sql: string): Statement {
    return this.statements.get(sql);
  }
}
