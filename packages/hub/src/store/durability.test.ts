import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from './database';
import { WalDurability } from './durability';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('shares one flush among concurrent writers and never lets a write be acknowledged before a flush that follows it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-wal-'));
  dirs.push(dir);
  const db = openDatabase(join(dir, 'hub.db'));
  db.exec('CREATE TABLE t (v INTEGER)');
  const durability = new WalDurability(join(dir, 'hub.db-wal'));
  const order: string[] = [];
  // Writers that commit together (in one turn of the event loop) share one flush.
  const writes = Array.from({ length: 20 }, (_, i) => {
    db.prepare('INSERT INTO t (v) VALUES (?)').run(i);
    return durability.sync().then(() => order.push(`ack ${i}`));
  });
  await Promise.all(writes);
  expect(order).toHaveLength(20);
  expect(durability.flushes).toBe(1);

  // A write committed while a flush runs waits for the next flush rather than the running one.
  let secondResolved = false;
  const first = durability.sync();
  while (durability.flushes < 2) await new Promise((resolve) => setImmediate(resolve));
  db.prepare('INSERT INTO t (v) VALUES (?)').run(99);
  const second = durability.sync().then(() => {
    secondResolved = true;
  });
  await first;
  expect(secondResolved).toBe(false);
  await second;
  expect(secondResolved).toBe(true);
  expect(durability.flushes).toBe(3);
  durability.close();
  db.close();
});
