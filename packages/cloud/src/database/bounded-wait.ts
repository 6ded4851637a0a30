import { HearthError } from '@hearth/contract';
import type {
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  TransactionSettings,
} from 'kysely';

/**
 * A dialect whose queries wait a bounded time for a connection. Embedded PGlite has one connection: a query that
 * waits for it while its own caller holds it (a transaction or a session lock awaiting a query through the pool)
 * would otherwise wait forever, and every request after it would queue behind it without a word in the log. Bounded,
 * the wait fails with `503 unavailable` naming the cause, which the caller's error handling logs (a request's error
 * handler, a sweep's log), and the connection is never handed to a waiter that gave up.
 */
export class BoundedWaitDialect implements Dialect {
  constructor(
    private readonly inner: Dialect,
    private readonly waitMs: number,
  ) {}

  createDriver(): Driver {
    return new BoundedWaitDriver(this.inner.createDriver(), this.waitMs);
  }
  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}

class BoundedWaitDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly waitMs: number,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let gaveUp = false;
    let timer: NodeJS.Timeout | undefined;
    const acquiring = this.inner.acquireConnection();
    // A connection that arrives after the waiter gave up goes straight back, or nobody would ever release it.
    acquiring.then(
      (connection) => {
        if (gaveUp) void this.inner.releaseConnection(connection);
      },
      () => {},
    );
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(
          new HearthError(
            'unavailable',
            `The database is busy: no connection was free within ${this.waitMs} ms (a query waiting on its own transaction?)`,
          ),
        );
      }, this.waitMs);
    });
    try {
      return await Promise.race([acquiring, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.savepoint) throw new Error('The database driver has no savepoints');
    return this.inner.savepoint(connection, name, compile);
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.rollbackToSavepoint) throw new Error('The database driver has no savepoints');
    return this.inner.rollbackToSavepoint(connection, name, compile);
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    if (!this.inner.releaseSavepoint) throw new Error('The database driver has no savepoints');
    return this.inner.releaseSavepoint(connection, name, compile);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
