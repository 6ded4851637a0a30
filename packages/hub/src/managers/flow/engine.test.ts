import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { ack, connectRealtime } from '../../testing/socket';
import { until } from '../../testing/until';

const SOCKET = 'homey:app:com.hearth.virtual:virtualsocket';
const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
type Json = Record<string, unknown>;
interface Trace {
  id: string;
  status: string;
  mode?: string;
  trigger: { uri: string; id: string; tokens: Json };
  steps: { kind: string; outcome: string; card?: string; group?: string; message?: string; args?: Json; result?: unknown }[];
}

/** Runs flows through real HTTP on a hub whose clock the test moves. */
describe('the flow engine', () => {
  let t: TestHub;
  let clock: FakeClock;
  let socket: string;
  let light: string;
  let lamp: string;
  const events: HubEvent[] = [];
  const device = (id: string) => `homey:device:${id}`;
  const value = (id: string, capability: string) => t.hub.services.devices.getCapabilityValue(id, capability);
  const traces = (id: string, type = 'flow') => t.call<Trace[]>('GET', `/flow/${type}/${id}/trace`).then((a) => a.body);
  const setSocket = (on: boolean) => t.call('PUT', `/devices/device/${socket}/capability/onoff`, { value: on });

  beforeAll(async () => {
    clock = new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0));
    t = await startTestHub({}, { clock });
    t.hub.context.events.on((event) => events.push(event));
    await untilAppRunning(t);
    socket = await pairDevice(t, SOCKET);
    light = await pairDevice(t, LIGHT);
    lamp = await pairDevice(t, LIGHT);
  });
  afterAll(() => t.stop());

  it('runs a device flow: a trigger, a condition in one of two OR groups, a delayed action on another device', async () => {
    await t.call('PUT', `/devices/device/${lamp}/capability/onoff`, { value: false });
    const created = await t.call<{ id: string; broken: boolean }>('POST', '/flow/flow', {
      name: 'Socket lights the room',
      trigger: { uri: device(socket), id: 'onoff_true' },
      conditions: [
        // group1 fails (the lamp is off), group2 passes (the light's dim is below 0.5): the flow goes on.
        { uri: device(lamp), id: 'onoff', group: 'group1' },
        { uri: device(light), id: 'dim_less_than', group: 'group2', args: { value: 0.5 } },
      ],
      actions: [{ uri: device(light), id: 'dim_set', args: { value: 0.8 }, delay: { number: '2', multiplier: 1 } }],
    });
    expect(created.body.broken).toBe(false);
    await t.call('PUT', `/devices/device/${light}/capability/dim`, { value: 0.1 });
    expect((await setSocket(true)).status).toBe(204);

    const pending = await until(
      () => t.call<{ id: string; flowId: string; dueAt: string; card: string }[]>('GET', '/flow/flow/pending'),
      (answer) => answer.body.length === 1,
    );
    expect(pending.body[0]).toMatchObject({ flowId: created.body.id, card: `${device(light)}:dim_set` });
    expect(Date.parse(pending.body[0]?.dueAt as string)).toBe(clock.now() + 2_000);
    expect(value(light, 'dim')).toBe(0.1);
    await clock.advance(1_999);
    expect(value(light, 'dim')).toBe(0.1);
    await clock.advance(1);
    expect(value(light, 'dim')).toBe(0.8);
    expect((await t.call<unknown[]>('GET', '/flow/flow/pending')).body).toEqual([]);

    const [trace] = await traces(created.body.id);
    expect(trace).toMatchObject({ status: 'completed', trigger: { uri: device(socket), id: 'onoff_true' } });
    expect(trace?.steps.map((s) => [s.kind, s.outcome, s.group])).toEqual([
      ['condition', 'failed', 'group1'],
      ['group', 'failed', 'group1'],
      ['condition', 'passed', 'group2'],
      ['group', 'passed', 'group2'],
      ['delay', 'scheduled', 'then'],
      ['action', 'started', 'then'],
      ['action', 'done', 'then'],
    ]);
    expect(trace?.steps[0]?.message).toContain('does not hold');
    expect(events.some((e) => e.uri === 'homey:manager:flow' && e.event === 'trace.create')).toBe(true);
  });

  const flow = async (body: Json) => {
    const created = await t.call<{ id: string; broken: boolean }>('POST', '/flow/flow', body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body;
  };
  const notifications = async () =>
    Object.values((await t.call<Record<string, { excerpt: string }>>('GET', '/notifications/notification')).body).map(
      (n) => n.excerpt,
    );

  it('runs the else column when no group passes, and says why in the trace', async () => {
    await t.call('PUT', `/devices/device/${lamp}/capability/onoff`, { value: false });
    const created = await flow({
      name: 'Else',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
      conditions: [{ uri: device(lamp), id: 'onoff' }],
      actions: [
        { uri: 'homey:manager:notifications', id: 'create_notification', args: { text: 'then ran' } },
        { uri: 'homey:manager:notifications', id: 'create_notification', group: 'else', args: { text: 'else ran' } },
      ],
    });
    const run = await t.call<Trace>('POST', `/flow/flow/${created.id}/trigger`, {});
    expect(run.body.status).toBe('completed');
    expect(await notifications()).toContain('else ran');
    expect(await notifications()).not.toContain('then ran');
    expect(run.body.steps.find((step) => step.kind === 'group')).toMatchObject({ outcome: 'failed', group: 'group1' });
    // An inverted card passes when its condition does not hold.
    await t.call('PUT', `/flow/flow/${created.id}`, { conditions: [{ uri: device(lamp), id: 'onoff', inverted: true }] });
    await t.call('POST', `/flow/flow/${created.id}/trigger`, {});
    expect(await notifications()).toContain('then ran');
  });

  it('puts trigger tokens and global tokens into text arguments, and refuses a bare number as a delay', async () => {
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Room', type: 'string', value: 'hall' });
    const created = await flow({
      name: 'Tokens',
      trigger: { uri: device(socket), id: 'onoff_changed' },
      conditions: [],
      actions: [
        {
          uri: 'homey:manager:notifications',
          id: 'create_notification',
          args: { text: `Socket on: [[onoff]] in the [[homey:manager:logic|${variable.body.id}]]` },
        },
      ],
    });
    await setSocket(false);
    await until(notifications, (list) => list.includes('Socket on: false in the hall'));
    const bare = await t.call<{ error_description: string }>('POST', '/flow/flow', {
      name: 'Bare delay',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
      conditions: [],
      actions: [{ uri: device(light), id: 'dim_set', args: { value: 1 }, delay: 5 }],
    });
    expect(bare.status).toBe(400);
    expect(bare.body.error_description).toContain('actions.0.delay');
    await t.call('DELETE', `/flow/flow/${created.id}`);
  });

  it('runs an advanced flow with all, any, a delay node and an error branch', async () => {
    const [start, action1, action2, all, any, delay, failing, recover, done] = Array.from({ length: 9 }, () =>
      crypto.randomUUID(),
    );
    const note = (text: string) => ({ ownerUri: 'homey:manager:notifications', id: 'create_notification', args: { text } });
    const created = await t.call<{ id: string; broken: boolean; triggerable: boolean }>('POST', '/flow/advancedflow', {
      name: 'Graph',
      cards: {
        [start]: { type: 'start', x: 0, y: 0, outputSuccess: [action1, action2, failing] },
        [action1]: { type: 'action', x: 1, y: 0, ...note('branch one'), outputSuccess: [all, any] },
        [action2]: { type: 'action', x: 1, y: 1, ...note('branch two'), outputSuccess: [all, any] },
        [all]: { type: 'all', x: 2, y: 0, outputSuccess: [delay] },
        [any]: { type: 'any', x: 2, y: 1, outputSuccess: [done] },
        [delay]: { type: 'delay', x: 3, y: 0, args: { delay: { number: '1', multiplier: 60 } }, outputSuccess: [done] },
        [done]: { type: 'action', x: 4, y: 0, ...note(`after [[action::${action1}::notificationId]]`) },
        [failing]: {
          type: 'action',
          x: 1,
          y: 2,
          ownerUri: device(light),
          id: 'dim_set',
          args: { value: 7 },
          outputError: [recover],
        },
        [recover]: { type: 'action', x: 2, y: 2, ...note(`recovered from [[card::${failing}::error]]`) },
      },
    });
    expect(created.body).toMatchObject({ broken: false, triggerable: true });
    const run = await t.call<Trace>('POST', `/flow/advancedflow/${created.body.id}/trigger`, {});
    expect(run.body.status).toBe('waiting');
    // `any` went on once (the first branch); `all` waited for both and then for the delay.
    expect(await notifications()).toContain('recovered from Invalid Parameter: args.value. Must be at most 1');
    const doneRuns = async () =>
      ((await traces(created.body.id, 'advancedflow'))[0]?.steps ?? []).filter(
        (step) => (step as { node?: string }).node === done && step.outcome === 'done',
      );
    expect(await doneRuns()).toHaveLength(1);
    await clock.advance(60_000);
    const finished = await doneRuns();
    expect(finished).toHaveLength(2);
    // The last card read the first action's result token and the failed card's error.
    expect((finished[1] as { args?: Json }).args?.text).toMatch(/^after [0-9a-f-]{36}$/);
    const [trace] = await traces(created.body.id, 'advancedflow');
    expect(trace?.status).toBe('completed');
    expect(trace?.steps.some((step) => step.outcome === 'waiting')).toBe(true);
    expect(trace?.steps.some((step) => step.kind === 'action' && step.outcome === 'error')).toBe(true);
  });

  it('fires time, sunrise, variable and webhook triggers', async () => {
    const ran: string[] = [];
    const unregister = t.hub.services.flowCards.registerCard({
      type: 'action',
      uri: 'homey:app:com.test.recorder',
      id: 'record',
      title: 'Record',
      args: [{ name: 'what', type: 'text' }],
      run: ({ args }) => void ran.push(String(args.what)),
    });
    const record = (what: string) => ({ uri: 'homey:app:com.test.recorder', id: 'record', args: { what } });
    const located = await t.call('PUT', '/geolocation/option/location', { value: { latitude: 52.37, longitude: 4.9 } });
    expect(located.status).toBeLessThan(300);
    const local = new Date(clock.now() + 3 * 60_000);
    const time = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    await flow({
      name: 'Time',
      trigger: { uri: 'homey:manager:cron', id: 'time_exactly', args: { time } },
      conditions: [],
      actions: [record('time')],
    });
    await flow({
      name: 'Sunrise',
      trigger: { uri: 'homey:manager:cron', id: 'sunrise', args: { offset: 10 } },
      conditions: [],
      actions: [record('sunrise')],
    });
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Count', type: 'number', value: 1 });
    await flow({
      name: 'Variable',
      trigger: {
        uri: 'homey:manager:logic',
        id: 'variable_changed',
        args: { variable: { id: variable.body.id, name: 'Count' } },
      },
      conditions: [],
      actions: [record('variable [[value]]')],
    });
    await flow({
      name: 'Webhook',
      trigger: { uri: 'homey:manager:logic', id: 'webhook', args: { event: 'doorbell' } },
      conditions: [],
      actions: [record('webhook [[tag]]')],
    });
    await clock.advance(3 * 60_000);
    expect(ran).toEqual(['time']);
    await t.call('PUT', `/logic/variable/${variable.body.id}`, { value: 2 });
    await t.call('GET', '/logic/webhook/doorbell?tag=front');
    await t.call('GET', '/logic/webhook/other?tag=back');
    expect(ran).toEqual(['time', 'variable 2', 'webhook front']);
    // Sunrise in Amsterdam on 2 June 2026 is at 05:19 local time (03:19 UTC); the flow runs ten minutes later.
    const { sunEvent } = await import('./time-cards');
    const sunrise = sunEvent('sunrise', { latitude: 52.37, longitude: 4.9 }, clock.now() + 86_400_000) as number;
    await clock.set(Math.round(sunrise / 60_000) * 60_000 + 10 * 60_000 + 1);
    expect(ran.filter((r) => r === 'sunrise')).toEqual(['sunrise']);
    // Local time is the hub's zone's, whatever the host's: Kiritimati is 14 hours ahead of UTC all year.
    const refused = await t.call<{ error: string }>('PUT', '/i18n/option/timezone', { value: 'Mars/Olympus_Mons' });
    expect(refused.body.error).toBe('invalid_parameter');
    expect((await t.call('PUT', '/i18n/option/timezone', { value: 'Pacific/Kiritimati' })).status).toBe(200);
    const there = new Date(clock.now() + 2 * 60_000 + 14 * 3_600_000);
    const zoned = `${String(there.getUTCHours()).padStart(2, '0')}:${String(there.getUTCMinutes()).padStart(2, '0')}`;
    await flow({
      name: 'Zoned time',
      trigger: { uri: 'homey:manager:cron', id: 'time_exactly', args: { time: zoned } },
      conditions: [],
      actions: [record('zoned')],
    });
    await clock.advance(2 * 60_000);
    expect(ran.filter((r) => r === 'zoned')).toEqual(['zoned']);
    expect((await t.call('DELETE', '/i18n/option/timezone')).status).toBeLessThan(300);
    unregister();
  });

  it('follows each run mode when a trigger arrives while a run waits on a delayed action', async () => {
    const modeFlow = (mode: string, max?: number) =>
      flow({
        name: `Mode ${mode}`,
        mode,
        ...(max ? { max } : {}),
        trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
        conditions: [],
        actions: [
          {
            uri: 'homey:manager:notifications',
            id: 'create_notification',
            args: { text: `${mode} done` },
            delay: { number: '10', multiplier: 1 },
          },
        ],
      });
    const trigger = (id: string) => t.call<Trace>('POST', `/flow/flow/${id}/trigger`, {}).then((a) => a.body);
    const pendingOf = async (id: string) =>
      (await t.call<{ flowId: string }[]>('GET', '/flow/flow/pending')).body.filter((p) => p.flowId === id).length;

    const single = await modeFlow('single');
    expect((await trigger(single.id)).status).toBe('waiting');
    const skipped = await trigger(single.id);
    expect(skipped.status).toBe('skipped');
    expect(skipped.steps[0]?.message).toContain('single');
    expect(await pendingOf(single.id)).toBe(1);

    const restart = await modeFlow('restart');
    await trigger(restart.id);
    await clock.advance(5_000);
    const second = await trigger(restart.id);
    expect(second.mode).toContain('restart');
    expect(await pendingOf(restart.id)).toBe(1);
    const [, first] = await traces(restart.id);
    expect(first?.status).toBe('restarted');
    expect(first?.steps.at(-1)).toMatchObject({ outcome: 'cancelled' });

    const parallel = await modeFlow('parallel', 2);
    await trigger(parallel.id);
    await trigger(parallel.id);
    expect((await trigger(parallel.id)).status).toBe('skipped');
    expect(await pendingOf(parallel.id)).toBe(2);

    const queued = await modeFlow('queued', 1);
    await trigger(queued.id);
    const waiting = trigger(queued.id);
    expect((await trigger(queued.id)).status).toBe('skipped');
    await clock.advance(10_000);
    const queuedRun = await waiting;
    expect(queuedRun.mode).toContain('queued');
    expect(await pendingOf(queued.id)).toBe(1);
    await clock.advance(10_000);
    expect(await pendingOf(queued.id)).toBe(0);
  });

  it('cancels a pending action on request, and every pending action of a flow that is switched off', async () => {
    const created = await flow({
      name: 'Later',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
      conditions: [],
      actions: [
        { uri: device(light), id: 'dim_set', args: { value: 0.3 }, delay: { number: '5', multiplier: 60 } },
        { uri: device(light), id: 'dim_set', args: { value: 0.2 }, delay: { number: '6', multiplier: 60 } },
      ],
    });
    await t.call('POST', `/flow/flow/${created.id}/trigger`, {});
    const pending = (await t.call<{ id: string; flowId: string }[]>('GET', '/flow/flow/pending')).body.filter(
      (p) => p.flowId === created.id,
    );
    expect(pending).toHaveLength(2);
    expect((await t.call('DELETE', `/flow/flow/pending/${pending[0]?.id}`)).status).toBe(204);
    expect((await t.call('DELETE', `/flow/flow/pending/${pending[0]?.id}`)).status).toBe(404);
    await t.call('PUT', `/flow/flow/${created.id}`, { enabled: false });
    expect((await t.call<{ flowId: string }[]>('GET', '/flow/flow/pending')).body.filter((p) => p.flowId === created.id)).toEqual(
      [],
    );
    const before = value(light, 'dim');
    await clock.advance(10 * 60_000);
    expect(value(light, 'dim')).toBe(before);
    const [trace] = await traces(created.id);
    expect(trace?.steps.filter((step) => step.outcome === 'cancelled')).toHaveLength(2);
    expect(trace?.status).toBe('completed');
  });

  it('pauses a flow that keeps starting itself, and tells the household', async () => {
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Echo', type: 'number', value: 0 });
    const choice = { id: variable.body.id, name: 'Echo' };
    const created = await flow({
      name: 'Echo chamber',
      trigger: { uri: 'homey:manager:logic', id: 'variable_changed', args: { variable: choice } },
      conditions: [],
      actions: [{ uri: 'homey:manager:logic', id: 'variable_increment', args: { variable: choice, amount: 1 } }],
    });
    await t.call('PUT', `/logic/variable/${variable.body.id}`, { value: 1 });
    const paused = await until(
      () => t.call<{ enabled: boolean }>('GET', `/flow/flow/${created.id}`),
      (answer) => answer.body.enabled === false,
    );
    expect(paused.body.enabled).toBe(false);
    const count = (await t.call<{ value: number }>('GET', `/logic/variable/${variable.body.id}`)).body.value;
    expect(count).toBeGreaterThan(20);
    expect(count).toBeLessThan(30);
    expect((await notifications()).some((n) => n.includes('Echo chamber') && n.includes('paused'))).toBe(true);
    const guarded = (await traces(created.id)).filter((trace) => trace.status === 'skipped');
    expect(guarded.map((trace) => trace.steps[0]?.message)).toEqual([expect.stringContaining('loop guard')]);
  });

  it('turns a flow broken the moment a device it uses is deleted, and says so with flow.update', async () => {
    const spare = await pairDevice(t, SOCKET);
    const created = await flow({
      name: 'Uses the spare',
      trigger: { uri: device(spare), id: 'onoff_true' },
      conditions: [],
      actions: [],
    });
    expect(created.broken).toBe(false);
    events.length = 0;
    await t.call('DELETE', `/devices/device/${spare}`);
    await until(
      async () => events,
      (list) => list.some((e) => e.event === 'flow.update' && (e.data as { id: string; broken: boolean }).id === created.id),
    );
    const update = events.find((e) => e.event === 'flow.update' && (e.data as { id: string }).id === created.id);
    expect((update?.data as { broken?: boolean } | undefined)?.broken).toBe(true);
    expect((await t.call<{ broken: boolean }>('GET', `/flow/flow/${created.id}`)).body.broken).toBe(true);
  });

  it('tests an unsaved flow, streaming each step to the tester over the socket, and autocompletes hub cards', async () => {
    const realtime = await connectRealtime(t);
    const streamed: { sessionId: string; step: { kind: string; outcome: string } }[] = [];
    realtime.api.on('homey:manager:flow', (event: string, data: (typeof streamed)[number]) => {
      if (event === 'flowtest.step') streamed.push(data);
    });
    try {
      expect((await ack(realtime.api, 'subscribe', 'homey:manager:flow'))[0]).toBeNull();
      const answer = await t.call<Trace>('POST', '/flow/flow/test', {
        sessionId: 'editor-1',
        tokens: { who: 'Ada' },
        flow: {
          name: 'Draft',
          trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
          conditions: [{ uri: 'homey:manager:cron', id: 'is_weekday' }],
          actions: [{ uri: 'homey:manager:notifications', id: 'create_notification', args: { text: 'Hello [[who]]' } }],
        },
      });
      // 1 June 2026 is a Monday.
      expect(answer.body.status).toBe('completed');
      await until(
        async () => streamed,
        (list) => list.length >= 4,
      );
      expect(streamed.map((s) => [s.sessionId, s.step.kind, s.step.outcome])).toEqual([
        ['editor-1', 'condition', 'passed'],
        ['editor-1', 'group', 'passed'],
        ['editor-1', 'action', 'started'],
        ['editor-1', 'action', 'done'],
      ]);
      expect(await notifications()).toContain('Hello Ada');
    } finally {
      realtime.close();
    }
    await t.call('POST', '/logic/variable', { name: 'Outside temperature', type: 'number', value: 12 });
    const suggestions = await t.call<{ id: string; name: string }[]>(
      'GET',
      '/flow/flowcardaction/homey:manager:logic/variable_set/autocomplete?name=variable&query=outside',
    );
    expect(suggestions.body.map((s) => s.name)).toEqual(['Outside temperature']);
  });
});
