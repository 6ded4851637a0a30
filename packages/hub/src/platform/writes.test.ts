import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/database';
import { durably } from './writes';

describe('group commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-writes-'));
  const db = openDatabase(join(dir, 'test.db'));
  db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)');
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits concurrent writes together, rolling back only the one that fails', async () => {
    let commits = 0;
    const original = db.exec.bind(db);
    db.exec = ((sql: string) => {
      if (sql === 'COMMIT') commits += 1;
      return original(sql);
    }) as typeof db.exec;
    const insert = db.prepare('INSERT INTO item (name) VALUES (?)');
    const results = await Promise.allSettled([
      durably(db, () => insert.run('a').lastInsertRowid),
      durably(db, () => {
        insert.run('b');
        insert.run('a'); // violates UNIQUE: this write, and its insert of b, are undone
      }),
      durably(db, () =>
        db.transaction(() => {
          insert.run('c');
          return 'nested transactions work';
        })(),
      ),
    ]);
    db.exec = original;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<string>).value).toBe('nested transactions work');
    expect(db.prepare('SELECT name FROM item ORDER BY name').pluck().all()).toEqual(['a', 'c']);
    expect(commits).toBe(1);
    expect(db.inTransaction).toBe(false);
  });

  it('settles later writes in a new transaction', async () => {
    await durably(db, () => db.prepare('INSERT INTO item (name) VALUES (?)').run('d'));
    await durably(db, () => db.prepare('INSERT INTO item (name) VALUES (?)').run('e'));
    expect(db.prepare('SELECT COUNT(*) FROM item').pluck().get()).toBe(4);
  });
});
