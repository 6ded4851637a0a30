import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../core/clock';
import { type HubDatabase, migrate, openDatabase } from '../../../store/database';
import { type FlowTrace, TRACE_DAYS, TRACES_PER_FLOW, TraceStore, traceMigrations } from './traces';

const START = Date.UTC(2026, 5, 1, 9, 0, 0);

const trace = (flowId: string, n: number, at: number, status: FlowTrace['status'] = 'completed'): FlowTrace => ({
  id: `${flowId}-run-${n}`,
  flowId,
  flowType: 'flow',
  flowName: `Flow ${flowId}`,
  startedAt: at,
  finishedAt: status === 'waiting' ? null : at,
  status,
  trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger', tokens: { n }, source: null },
  steps: [],
});

describe('the trace store', () => {
  const dirs: string[] = [];
  const dbs: HubDatabase[] = [];
  const open = (dir = mkdtempSync(join(tmpdir(), 'hearth-traces-'))) => {
    dirs.push(dir);
    const db = openDatabase(join(dir, 'hub.db'));
    dbs.push(db);
    migrate(db, traceMigrations);
    return { db, dir };
  };
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const runs = (store: TraceStore, flowId: string) => store.list('flow', flowId).map((t) => t.trigger.tokens.n);

  it('keeps the newest runs of each flow, newest first, and goes on where it left after a restart', () => {
    const clock = new FakeClock(START);
    const { db, dir } = open();
    const store = new TraceStore(db, clock);
    // Runs started in the same millisecond still list in the order they were written.
    for (let n = 1; n <= 25; n++) store.save(trace('a', n, START), { first: true });
    store.save(trace('b', 1, START), { first: true });
    const newest = Array.from({ length: TRACES_PER_FLOW }, (_, i) => 25 - i);
    expect(runs(store, 'a')).toEqual(newest);
    expect(runs(store, 'b')).toEqual([1]);
    expect(db.prepare('SELECT COUNT(*) FROM flow_trace').pluck().get()).toBe(TRACES_PER_FLOW + 1);
    db.close();

    const again = open(dir);
    const restarted = new TraceStore(again.db, clock);
    for (let n = 26; n <= 30; n++) restarted.save(trace('a', n, START + 1), { first: true });
    expect(runs(restarted, 'a')).toEqual(Array.from({ length: TRACES_PER_FLOW }, (_, i) => 30 - i));
  });

  it('updates a waiting run where it is, or writes it anew when newer runs took its place', () => {
    const clock = new FakeClock(START);
    const { db } = open();
    const store = new TraceStore(db, clock);
    const waiting = trace('a', 1, START, 'waiting');
    store.save(waiting, { first: true, now: true });
    store.save(trace('a', 2, START + 1), { first: true });
    store.save({ ...waiting, status: 'completed', finishedAt: START + 5 }, { first: false });
    expect(store.list('flow', 'a').map((t) => [t.trigger.tokens.n, t.status])).toEqual([
      [2, 'completed'],
      [1, 'completed'],
    ]);

    for (let n = 3; n <= 3 + TRACES_PER_FLOW; n++) store.save(trace('a', n, START + n), { first: true });
    expect(store.get('a', waiting.id)).toBeUndefined();
    store.save({ ...waiting, status: 'completed', finishedAt: START + 60 }, { first: false });
    expect(store.get('a', waiting.id)?.status).toBe('completed');
    expect(store.list('flow', 'a')).toHaveLength(TRACES_PER_FLOW);
  });

  it('lists and keeps nothing older than its days', async () => {
    const clock = new FakeClock(START);
    const { db } = open();
    const store = new TraceStore(db, clock);
    store.save(trace('a', 1, START), { first: true });
    await clock.advance(TRACE_DAYS * 86_400_000 - 1);
    store.save(trace('a', 2, clock.now()), { first: true });
    expect(runs(store, 'a')).toEqual([2, 1]);
    await clock.advance(2);
    expect(runs(store, 'a')).toEqual([2]);
    expect(store.prune()).toBe(1);
    store.deleteFlow('a');
    expect(runs(store, 'a')).toEqual([]);
  });

  it('moves the traces kept in the older table into the rings, the newest of each flow', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-traces-'));
    dirs.push(dir);
    const db = openDatabase(join(dir, 'hub.db'));
    dbs.push(db);
    migrate(db, traceMigrations.slice(0, 1));
    const insert = db.prepare('INSERT INTO flow_trace (id, flow_id, flow_type, started_at, data) VALUES (?, ?, ?, ?, ?)');
    for (let n = 1; n <= 30; n++) insert.run(`a-${n}`, 'a', 'flow', START + n, JSON.stringify(trace('a', n, START + n)));
    insert.run('b-1', 'b', 'flow', START, JSON.stringify(trace('b', 1, START)));
    migrate(db, traceMigrations);
    const store = new TraceStore(db, new FakeClock(START + 100));
    expect(runs(store, 'a')).toEqual(Array.from({ length: TRACES_PER_FLOW }, (_, i) => 30 - i));
    expect(runs(store, 'b')).toEqual([1]);
    store.save(trace('a', 31, START + 31), { first: true });
    expect(runs(store, 'a')).toEqual(Array.from({ length: TRACES_PER_FLOW }, (_, i) => 31 - i));
  });
});
