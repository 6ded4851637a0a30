import { FLOW_DELAY_MAX_SECONDS } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import { startTestHub, type TestHub } from '../../testing/hub';

const SOCKET = 'homey:app:com.hearth.virtual:virtualsocket';

describe('flow delays are bounded where a flow is saved, and a bad stored job never breaks the pending list', () => {
  let t: TestHub;
  const clock = new FakeClock(Date.parse('2027-01-31T12:00:00Z'));
  beforeAll(async () => {
    t = await startTestHub({}, { clock });
  });
  afterAll(() => t.stop());

  const flowWith = (delay: unknown, duration: unknown = null) => ({
    name: 'Delayed',
    trigger: { uri: 'homey:manager:logic', id: 'variable_changed' },
    conditions: [],
    actions: [{ uri: 'homey:manager:notifications', id: 'create_notification', args: { text: 'hi' }, delay, duration }],
  });

  it('refuses delays that are no plain number or longer than a year with a 400 naming the field', async () => {
    for (const delay of [
      { number: '1e12', multiplier: 60 },
      { number: '-5', multiplier: 1 },
      { number: ' 5', multiplier: 1 },
      { number: 'Infinity', multiplier: 1 },
      { number: String(FLOW_DELAY_MAX_SECONDS / 60 + 1), multiplier: 60 },
    ]) {
      const answer = await t.call<{ error: string; error_description: string }>('POST', '/flow/flow', flowWith(delay));
      expect(answer.status, JSON.stringify(delay)).toBe(400);
      expect(answer.body.error_description, JSON.stringify(delay)).toMatch(/delay/);
    }
    const longDuration = await t.call('POST', '/flow/flow', flowWith(null, { number: '99999999', multiplier: 60 }));
    expect(longDuration.status).toBe(400);
    // A year exactly, and half a second, are fine.
    for (const delay of [
      { number: String(FLOW_DELAY_MAX_SECONDS / 60), multiplier: 60 },
      { number: '0.5', multiplier: 1 },
    ])
      expect((await t.call('POST', '/flow/flow', flowWith(delay))).status, JSON.stringify(delay)).toBe(200);
    // Nothing half-written: only the two good flows exist.
    const flows = (await t.call<Record<string, { name: string }>>('GET', '/flow/flow')).body;
    expect(Object.values(flows).filter((flow) => flow.name === 'Delayed')).toHaveLength(2);
  });

  it('lists pending actions around a stored job whose time is no date', async () => {
    const scheduler = t.hub.context.scheduler;
    const good = scheduler.schedule({
      kind: 'flow.action',
      dueAt: clock.now() + 60_000,
      owner: 'flow:test-good',
      payload: { flowId: 'test-good', runId: 'run-good', action: { uri: SOCKET, id: 'on' } },
    });
    // What an unbounded delay once stored: 10^12 minutes from now, past any date.
    scheduler.schedule({
      kind: 'flow.action',
      dueAt: clock.now() + 1e12 * 60_000,
      owner: 'flow:test-bad',
      payload: { flowId: 'test-bad', runId: 'run-bad', action: { uri: SOCKET, id: 'on' } },
    });
    const pending = await t.call<{ id: string }[]>('GET', '/flow/flow/pending');
    expect(pending.status).toBe(200);
    expect(pending.body.map((p) => p.id)).toEqual([good.id]);
  });
});
