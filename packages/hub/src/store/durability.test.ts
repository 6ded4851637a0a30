import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { databasePath } from '../config';
import { startTestHub } from '../testing/hub';
import { commitPendingChanges, openDatabase, rollbackEpoch, transact } from './database';
import { GroupCommit } from './durability';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openGroup() {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-wal-'));
  const path = join(dir, 'hub.db');
  const db = openDatabase(path);
  db.exec('CREATE TABLE t (v INTEGER)');
  const group = new GroupCommit(db, `${path}-wal`);
  // A second connection sees only what was committed.
  const reader = new Database(path, { readonly: true });
  const committed = () => (reader.prepare('SELECT v FROM t ORDER BY v').pluck().all() as number[]).join(',');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => {
    reader.close();
    group.close();
    db.close();
  });
  return { db, group, committed };
}

const insert = (db: Database.Database, v: number) => db.prepare('INSERT INTO t (v) VALUES (?)').run(v);

it('commits the changes of one turn together, with one flush, before anyone is acknowledged', async () => {
  const { db, group, committed } = openGroup();
  const acknowledged: number[] = [];
  const writes = Array.from({ length: 20 }, (_, i) => {
    transact(db, () => insert(db, i));
    return group.sync().then(() => acknowledged.push(i));
  });
  expect(committed()).toBe(''); // still one open group
  await Promise.all(writes);
  expect(acknowledged).toHaveLength(20);
  expect(committed()).toBe(Array.from({ length: 20 }, (_, i) => i).join(','));
  expect(group.commits).toBe(1);
  expect(group.flushes).toBe(1);
});

it('commits a group nobody awaits once the turn is over (a timer’s write)', async () => {
  const { db, group, committed } = openGroup();
  transact(db, () => insert(db, 7));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(committed()).toBe('7');
  expect(group.commits).toBe(1);
});

it('undoes a failed change alone: the others of its group are committed', async () => {
  const { db, group, committed } = openGroup();
  transact(db, () => insert(db, 1));
  expect(() =>
    transact(db, () => {
      insert(db, 2);
      throw new Error('invalid');
    }),
  ).toThrow('invalid');
  transact(db, () => insert(db, 3));
  await group.sync();
  expect(committed()).toBe('1,3');
});

it('waits for the next flush when a change comes while one runs', async () => {
  const { db, group } = openGroup();
  transact(db, () => insert(db, 1));
  const first = group.sync();
  while (group.flushes < 1) await new Promise((resolve) => setImmediate(resolve));
  transact(db, () => insert(db, 2));
  let secondDone = false;
  const second = group.sync().then(() => {
    secondDone = true;
  });
  await first;
  expect(secondDone).toBe(false);
  await second;
  expect(group.flushes).toBe(2);
  expect(group.commits).toBe(2);
});

it('lets VACUUM run in a turn that has gathered changes, committing them first', async () => {
  const { db, group, committed } = openGroup();
  transact(db, () => insert(db, 5));
  commitPendingChanges(db);
  expect(() => db.exec('VACUUM')).not.toThrow();
  expect(committed()).toBe('5');
  await group.sync();
});

it('rejects everyone in a group whose commit fails, undoes the whole group and moves the rollback epoch', async () => {
  const { db, group, committed } = openGroup();
  // A deferred foreign key is checked at COMMIT: the way to make a real commit fail.
  db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
  const epoch = rollbackEpoch(db);
  transact(db, () => insert(db, 1));
  transact(db, () => db.prepare('INSERT INTO child (parent) VALUES (42)').run());
  const outcomes = await Promise.allSettled([group.sync(), group.sync()]);
  expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  expect(group.failures).toBe(1);
  expect(rollbackEpoch(db)).toBe(epoch + 1);
  expect(committed()).toBe('');
  expect(db.inTransaction).toBe(false);
  // The next group is unaffected.
  transact(db, () => insert(db, 2));
  await group.sync();
  expect(committed()).toBe('2');
});

it('answers 503 to a request whose group could not be committed, and serves what is stored afterwards', async () => {
  const hub = await startTestHub();
  cleanups.push(() => hub.stop());
  const { db, events } = hub.hub.context;
  db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
  const created = await hub.call<{ id: string }>('POST', '/zones/zone', {
    name: 'Kitchen',
    parent: (await hub.call<{ rootZoneId: string }>('GET', '/zones/state')).body.rootZoneId,
    icon: 'kitchen',
  });
  expect(created.status).toBe(200);
  // Another part of the hub makes a change that cannot be committed in the same turn as the rename.
  const stop = events.on((event) => {
    if (event.event === 'zone.update') transact(db, () => db.prepare('INSERT INTO child (parent) VALUES (42)').run());
  });
  const renamed = await hub.call<{ error: string; error_description: string }>('PUT', `/zones/zone/${created.body.id}`, {
    name: 'Pantry',
  });
  stop();
  expect(renamed.status).toBe(503);
  expect(renamed.body.error).toBe('unavailable');
  expect(renamed.body.error_description).toBe('The hub could not store this change; nothing was changed');
  const zone = await hub.call<{ name: string }>('GET', `/zones/zone/${created.body.id}`);
  expect(zone.body.name).toBe('Kitchen');
  const again = await hub.call<{ name: string }>('PUT', `/zones/zone/${created.body.id}`, { name: 'Pantry' });
  expect(again.status).toBe(200);
  expect((await hub.call<{ name: string }>('GET', `/zones/zone/${created.body.id}`)).body.name).toBe('Pantry');
});

it('answers a GET that stored something (a webhook call) only once that is committed', async () => {
  const hub = await startTestHub();
  cleanups.push(() => hub.stop());
  const reader = new Database(databasePath(hub.hub.context.config), { readonly: true });
  cleanups.push(() => reader.close());
  const stored = reader.prepare('SELECT COUNT(*) FROM logic_webhook_event').pluck();
  // Answered in the turn of the write, the event would (almost always) not be committed yet: check a few.
  for (let call = 1; call <= 5; call++) {
    const answer = await hub.call('GET', '/logic/webhook/doorbell');
    expect(answer.status).toBe(200);
    expect(stored.get()).toBe(call);
  }
});
