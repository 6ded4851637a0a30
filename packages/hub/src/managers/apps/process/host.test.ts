import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HearthError } from '@hearth/contract';
import { AppToHub } from '@hearth/sdk/protocol';
import { ensureRunner } from '@hearth/sdk/runner';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, FakeClock, systemClock } from '../../../core/clock';
import { DurableScheduler, schedulerMigrations } from '../../../core/durable-scheduler';
import { migrate, openDatabase } from '../../../store/database';
import type { AppToHubHandlers } from './child';
import { type AppLaunch, AppProcessHost, type AppStatus, type HostLimits } from './host';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'com.test.behave');
const manifest = JSON.parse(readFileSync(join(fixture, 'app.json'), 'utf8')) as Record<string, unknown>;
const APP = 'com.test.behave';

let runnerFile: string;
let dataDir: string;
const hosts: AppProcessHost[] = [];

beforeAll(async () => {
  runnerFile = await ensureRunner();
  dataDir = mkdtempSync(join(tmpdir(), 'hearth-apphost-'));
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.detach()));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Harness {
  host: AppProcessHost;
  scheduler: DurableScheduler;
  settings: Map<string, unknown>;
  statuses: AppStatus[];
  gaveUp: AppStatus[];
}

/** A host running the fixture app with `env`, answering its settings calls; other calls are refused. */
function harness(options: { clock?: Clock; env?: Record<string, string>; limits?: Partial<HostLimits> } = {}): Harness {
  const clock = options.clock ?? systemClock;
  // The hub's durable scheduler, over a database of this test's own.
  const db = openDatabase(':memory:');
  migrate(db, schedulerMigrations);
  const scheduler = new DurableScheduler(db, clock);
  scheduler.start();
  const settings = new Map<string, unknown>();
  const statuses: AppStatus[] = [];
  const gaveUp: AppStatus[] = [];
  const refuse = () => {
    throw new HearthError('not_implemented', 'Not offered by this test');
  };
  const handlers = {
    ...Object.fromEntries(Object.keys(AppToHub).map((method) => [method, refuse])),
    'settings.set': ({ key, value }: { key: string; value: unknown }) => void settings.set(key, value),
  } as unknown as AppToHubHandlers;
  const launch = (): AppLaunch => ({
    dir: fixture,
    init: {
      appId: APP,
      manifest,
      env: options.env ?? {},
      hubId: 'hub-test',
      hubVersion: '12.0.0',
      platform: 'local',
      platformVersion: 2,
      language: 'en',
      units: 'metric',
      timezone: 'Europe/Amsterdam',
      geolocation: { latitude: 52.37, longitude: 4.89, accuracy: 10, mode: 'manual' },
      localUrl: 'http://127.0.0.1:1',
      settings: {},
      devices: [
        {
          id: 'device-1',
          driverId: 'socket',
          name: 'Lamp',
          class: 'socket',
          data: { id: 1 },
          store: {},
          settings: {},
          capabilities: ['onoff'],
          capabilitiesOptions: {},
          values: { onoff: false },
          available: true,
          unavailableMessage: null,
          warning: null,
          energy: null,
        },
      ],
    },
  });
  const host = new AppProcessHost({
    dataDir,
    runnerFile,
    clock,
    scheduler,
    limits: { callTimeoutMs: 2_000, ...options.limits },
    launch,
    handlers: () => handlers,
    onStatus: (_id, status) => statuses.push(status),
    onGaveUp: (_id, status) => gaveUp.push(status),
  });
  host.attach();
  hosts.push(host);
  return { host, scheduler, settings, statuses, gaveUp };
}

const stdText = (host: AppProcessHost) =>
  host
    .std(APP)
    .map((l) => l.line)
    .join('\n');

/** Resolves once `host` reports a status matching `predicate`. */
function statusWhere(harness: Harness, predicate: (status: AppStatus) => boolean): Promise<AppStatus> {
  const found = harness.statuses.find(predicate);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const original = harness.statuses.push.bind(harness.statuses);
    harness.statuses.push = (...items: AppStatus[]) => {
      const count = original(...items);
      const match = items.find(predicate);
      if (match) resolve(match);
      return count;
    };
  });
}

describe('AppProcessHost', () => {
  it('runs an app in its own process, confined to its folders, and stops it cleanly', async () => {
    const h = harness();
    const status = await h.host.start(APP);
    expect(status).toMatchObject({ state: 'running', crashed: false });
    expect(h.statuses.map((s) => s.state)).toEqual(['starting', 'running']);
    // Node's permission model: reading outside the app's folders, writing its own folder and spawning are refused.
    await expect
      .poll(() => h.settings.get('checks'))
      .toEqual({
        readOutside: 'ERR_ACCESS_DENIED',
        writeOwnFolder: 'ERR_ACCESS_DENIED',
        writeUserdata: 'allowed',
        spawn: 'ERR_ACCESS_DENIED',
      });
    expect(JSON.parse(readFileSync(join(h.host.userdataDir(APP), 'state.json'), 'utf8'))).toEqual({ started: true });
    // A capability write reaches the device's listener and is confirmed; a refusal carries the app's message.
    await expect(
      h.host.call(APP, 'capability.set', { deviceId: 'device-1', values: { onoff: true }, opts: {} }),
    ).resolves.toBeNull();
    await expect(
      h.host.call(APP, 'capability.set', { deviceId: 'device-1', values: { onoff: true }, opts: { onoff: { refuse: true } } }),
    ).rejects.toMatchObject({ code: 'app_error', statusCode: 502, message: 'The socket refuses' });
    // Real usage of the process.
    const usage = await h.host.usage(APP);
    expect(usage.mem).toBeGreaterThan(20 * 1024 * 1024);
    expect(usage.cpu).toBeGreaterThanOrEqual(0);
    const stopped = await h.host.stop(APP);
    expect(stopped).toMatchObject({ state: 'stopped', crashed: false, exitCount: 0 });
    expect(h.statuses.map((s) => s.state)).toEqual(['starting', 'running', 'stopping', 'stopped']);
    // onUninit ran before the app's interval was cleared; the output is kept after the process ended.
    expect(stdText(h.host)).toContain('Behave stopping; timers pending: 1');
    // It heard `unload` before its onUninit ran.
    expect(stdText(h.host).indexOf('received unload')).toBeGreaterThan(-1);
    expect(stdText(h.host).indexOf('received unload')).toBeLessThan(stdText(h.host).indexOf('Behave stopping'));
    expect(stdText(h.host)).toContain('onoff set to true');
    await expect(h.host.call(APP, 'gc', {})).rejects.toMatchObject({ code: 'unavailable', statusCode: 503 });
    await h.host.remove(APP, true);
    expect(existsSync(h.host.userdataDir(APP))).toBe(false);
  });

  it('fails a call the app does not answer in time with a 504, and keeps the app running', async () => {
    const h = harness({ limits: { callTimeoutMs: 300 } });
    await h.host.start(APP);
    const error = await h.host
      .call(APP, 'capability.set', { deviceId: 'device-1', values: { onoff: true }, opts: { onoff: { hang: true } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HearthError);
    expect(error).toMatchObject({
      code: 'timeout',
      statusCode: 504,
      message: 'App com.test.behave did not answer capability.set within 300 ms',
    });
    expect(h.host.status(APP).state).toBe('running');
  });

  it('marks a crash with its message and exit, restarts with doubling back-off, and gives up after 5 crashes in 10 minutes', async () => {
    const clock = new FakeClock(Date.now());
    const h = harness({ clock });
    const delays: number[] = [];
    for (let crash = 1; crash <= 5; crash++) {
      if (crash === 1) await h.host.start(APP);
      else {
        const [job] = h.scheduler.list({ owner: `app:${APP}` });
        delays.push((job?.dueAt ?? 0) - clock.now());
        await clock.advance(job?.dueAt ? job.dueAt - clock.now() : 0);
        await statusWhere(h, (s) => s.state === 'running' && s.exitCount === crash - 1);
      }
      await h.host.call(APP, 'flow.run', {
        kind: 'action',
        cardId: 'misbehave',
        args: { how: 'crash' },
        state: {},
        tokens: {},
        deviceId: null,
      });
      const crashed = await statusWhere(h, (s) => s.exitCount === crash);
      expect(crashed).toMatchObject({
        state: 'stopped',
        crashed: true,
        crashedMessage: 'Deliberate crash for the test',
        exitCode: 1,
        exitSignal: null,
        session: null,
      });
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(h.gaveUp).toHaveLength(1);
    expect(h.scheduler.list({ owner: `app:${APP}` })).toEqual([]);
    expect(stdText(h.host)).toContain('Error: Deliberate crash for the test');
    // Someone starting it again clears the record of crashes.
    await expect(h.host.start(APP)).resolves.toMatchObject({ state: 'running', crashed: false, exitCount: 5 });
  });

  it('marks an app that fails its onInit as crashed with the reason', async () => {
    const h = harness({ env: { MODE: 'init-fails' }, limits: { backoffMs: 60_000 } });
    const status = await h.host.start(APP);
    expect(status).toMatchObject({
      state: 'stopped',
      crashed: true,
      crashedMessage: 'The app failed to start: onInit refuses to start',
      exitSignal: 'SIGKILL',
      exitCount: 1,
    });
    // Its log has the stack of the failure, down to the app's own line.
    await expect.poll(() => stdText(h.host), { timeout: 5_000 }).toContain('Error: onInit refuses to start');
    expect(stdText(h.host)).toMatch(/at BehaveApp\.onInit \(.*app\.js:\d+:\d+\)/);
  });

  it('ends an app that grows past its heap cap and marks it crashed', async () => {
    const h = harness({ env: { MODE: 'oom' }, limits: { heapMb: 32, backoffMs: 60_000 } });
    await h.host.start(APP);
    const crashed = await statusWhere(h, (s) => s.crashed);
    expect(crashed.crashedMessage).toBe('The app ran out of memory (heap limit 32 MB)');
    expect(crashed.exitSignal ?? crashed.exitCode).toBeTruthy();
  });

  it('warns an app whose memory passes the warning mark with memwarn, and keeps it running', async () => {
    const h = harness({ limits: { sampleIntervalMs: 100, memwarnBytes: 1 } });
    await h.host.start(APP);
    await expect.poll(() => stdText(h.host), { timeout: 5_000 }).toContain('received memwarn 1 (heap limit 128 MB)');
    await expect.poll(() => stdText(h.host), { timeout: 5_000 }).toContain('received memwarn 2 (heap limit 128 MB)');
    expect(h.host.status(APP)).toMatchObject({ state: 'running', crashed: false });
  });

  it('warns a busy-looping app with cpuwarn and then stops it', async () => {
    const h = harness({
      env: { MODE: 'busy' },
      limits: { sampleIntervalMs: 150, busyCpuPercent: 60, busySamplesPerWarning: 2, cpuWarnings: 1, backoffMs: 60_000 },
    });
    await h.host.start(APP);
    const crashed = await statusWhere(h, (s) => s.crashed);
    expect(crashed.crashedMessage).toMatch(/^The app was stopped: it kept the processor busy \(over 60 % for about \d+ s\)$/);
    expect(crashed.exitSignal).toBe('SIGKILL');
    expect(stdText(h.host)).toContain('received cpuwarn 1/1');
  });

  it('streams output to followers and keeps a bounded log', async () => {
    const h = harness();
    const followed: string[] = [];
    const stop = h.host.follow(APP, (line) => followed.push(line.line));
    await h.host.start(APP);
    await expect.poll(() => followed.some((l) => l.includes('Behave started calm'))).toBe(true);
    stop();
    for (let i = 0; i < 600; i++) h.host.note(APP, 'stdout', `line ${i}`);
    const lines = h.host.std(APP);
    expect(lines).toHaveLength(500);
    expect(lines.at(-1)?.line).toBe('line 599');
  });
});
