import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type HubDatabase, migrate, openDatabase } from '../store/database';
import { FakeClock } from './clock';
import { DurableScheduler, schedulerMigrations } from './durable-scheduler';
import type { ScheduledJob } from './scheduler';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function database(): { db: HubDatabase; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-scheduler-'));
  const path = join(dir, 'hub.db');
  const db = openDatabase(path);
  migrate(db, schedulerMigrations);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => db.open && db.close());
  return { db, path };
}

describe('DurableScheduler', () => {
  it('runs jobs at their due time in due order, and not before', async () => {
    const { db } = database();
    const clock = new FakeClock(0);
    const scheduler = new DurableScheduler(db, clock);
    const ran: [string, number][] = [];
    scheduler.handle<{ name: string }>('test', { run: (job) => void ran.push([job.payload.name, clock.now()]) });
    scheduler.start();
    scheduler.schedule({ kind: 'test', owner: 'o', dueAt: 5_000, payload: { name: 'late' } });
    scheduler.schedule({ kind: 'test', owner: 'o', dueAt: 2_000, payload: { name: 'early' } });
    await clock.advance(1_999);
    expect(ran).toEqual([]);
    await clock.advance(1);
    expect(ran).toEqual([['early', 2_000]]);
    await clock.advance(10_000);
    expect(ran).toEqual([
      ['early', 2_000],
      ['late', 5_000],
    ]);
    expect(scheduler.list()).toEqual([]);
    await scheduler.stop();
  });

  it('cancels one job or all of an owner’s, and waits with jobs whose handler is not registered yet', async () => {
    const { db } = database();
    const clock = new FakeClock(0);
    const scheduler = new DurableScheduler(db, clock);
    scheduler.start();
    const ran: string[] = [];
    const a = scheduler.schedule({ kind: 'test', owner: 'flow:1', dueAt: 100, payload: 'a' });
    scheduler.schedule({ kind: 'test', owner: 'flow:1', dueAt: 100, payload: 'b' });
    scheduler.schedule({ kind: 'test', owner: 'flow:2', dueAt: 100, payload: 'c' });
    scheduler.schedule({ kind: 'test', owner: 'flow:2', dueAt: 100, payload: 'd' });
    expect(scheduler.cancel(a.id)).toBe(true);
    expect(scheduler.cancel(a.id)).toBe(false);
    expect(scheduler.list({ owner: 'flow:1' }).map((j) => j.payload)).toEqual(['b']);
    await clock.advance(1_000);
    expect(scheduler.list()).toHaveLength(3); // no handler for `test` yet
    expect(scheduler.cancelOwner('flow:1')).toBe(1);
    scheduler.handle<string>('test', { run: (job) => void ran.push(job.payload) });
    await clock.advance(0);
    expect(ran.sort()).toEqual(['c', 'd']);
    await scheduler.stop();
  });

  it('keeps jobs across a restart, runs late ones once, and records as missed what is later than its grace', async () => {
    const { db } = database();
    const clock = new FakeClock(0);
    const first = new DurableScheduler(db, clock);
    first.start();
    first.schedule({ kind: 'late', owner: 'o', dueAt: 1_000, payload: 1 });
    first.schedule({ kind: 'strict', owner: 'o', dueAt: 1_000, payload: 2, misfire: { kind: 'drop', graceMs: 60_000 } });
    first.schedule({ kind: 'strict', owner: 'o', dueAt: 200_000, payload: 3, misfire: { kind: 'drop', graceMs: 60_000 } });
    await first.stop(); // the hub goes down before anything is due
    await clock.set(150_000);

    const second = new DurableScheduler(db, clock);
    const ran: unknown[] = [];
    const missed: [unknown, number][] = [];
    second.handle('late', { run: (job) => void ran.push(job.payload) });
    second.handle('strict', {
      run: (job) => void ran.push(job.payload),
      missed: (job, lateBy) => void missed.push([job.payload, lateBy]),
    });
    second.start();
    await clock.advance(0);
    expect(ran).toEqual([1]);
    expect(missed).toEqual([[2, 149_000]]);
    expect(second.missed().map((m) => [m.payload, m.lateByMs])).toEqual([[2, 149_000]]);
    await clock.set(200_000);
    expect(ran).toEqual([1, 3]);
    await second.stop();
  });

  it('drops a job whose handler throws instead of retrying it forever, and reports it', async () => {
    const { db } = database();
    const clock = new FakeClock(0);
    const errors: [unknown, ScheduledJob][] = [];
    const scheduler = new DurableScheduler(db, clock, (error, job) => errors.push([error, job]));
    let runs = 0;
    scheduler.handle('boom', {
      run: () => {
        runs += 1;
        throw new Error('handler failed');
      },
    });
    scheduler.start();
    scheduler.schedule({ kind: 'boom', owner: 'o', dueAt: 10, payload: null });
    await clock.advance(100);
    await clock.advance(100);
    expect(runs).toBe(1);
    expect(errors.map(([error]) => (error as Error).message)).toEqual(['handler failed']);
    expect(scheduler.list()).toEqual([]);
    await scheduler.stop();
  });

  it('commits an async handler’s writes before its first await with the job, and runs the rest after', async () => {
    const { db } = database();
    db.exec('CREATE TABLE note (text TEXT NOT NULL)');
    const clock = new FakeClock(0);
    const errors: unknown[] = [];
    const scheduler = new DurableScheduler(db, clock, (error) => errors.push(error));
    let finished = false;
    scheduler.handle('async', {
      run: async () => {
        db.prepare("INSERT INTO note (text) VALUES ('before the await')").run();
        await new Promise((resolve) => setTimeout(resolve, 5));
        finished = true;
      },
    });
    scheduler.start();
    scheduler.schedule({ kind: 'async', owner: 'o', dueAt: 10, payload: null });
    await clock.advance(10);
    // Taken once, its synchronous write kept, and the part after the await still under way (stop waits for it).
    expect(scheduler.list()).toEqual([]);
    expect(db.prepare('SELECT text FROM note').pluck().all()).toEqual(['before the await']);
    await scheduler.stop();
    expect(finished).toBe(true);
    expect(errors).toEqual([]);
  });

  it('waits for jobs further away than a timer can hold (weeks) by waking up on the way', async () => {
    const { db } = database();
    const clock = new FakeClock(0);
    const scheduler = new DurableScheduler(db, clock);
    const ran: number[] = [];
    scheduler.handle('far', { run: () => void ran.push(clock.now()) });
    scheduler.start();
    const dueAt = 40 * 24 * 3_600_000;
    scheduler.schedule({ kind: 'far', owner: 'o', dueAt, payload: null });
    await clock.set(dueAt - 1);
    expect(ran).toEqual([]);
    await clock.set(dueAt);
    expect(ran).toEqual([dueAt]);
    await scheduler.stop();
  });

  it('runs a job scheduled before a SIGKILL exactly once after the restart', { timeout: 60_000 }, async () => {
    const { db, path } = database();
    db.close();
    const script = resolve(import.meta.dirname, 'fixtures/scheduler-process.ts');
    const run = (args: string[], until?: string) =>
      new Promise<string>((done, fail) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (until && output.includes(until)) child.kill('SIGKILL');
        });
        child.once('error', fail);
        child.once('exit', () => done(output.trim()));
      });
    const dueAt = Date.now() + 500;
    expect(await run(['schedule', path, String(dueAt)], 'SCHEDULED')).toContain('SCHEDULED');
    while (Date.now() < dueAt) await new Promise((r) => setTimeout(r, 50));
    expect(await run(['run', path])).toBe('RAN 1');
    expect(await run(['run', path])).toBe('RAN 1');
  });
});
