import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

const SOCKET = 'homey:app:com.hearth.virtual:virtualsocket';
const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
type Json = Record<string, unknown>;
interface Trace {
  id: string;
  status: string;
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
});
