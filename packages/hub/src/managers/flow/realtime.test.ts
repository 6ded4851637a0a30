import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { ack, connectRealtime, type Realtime } from '../../testing/socket';

interface Flow {
  id: string;
  name: string;
  broken: boolean;
}

const started = { uri: 'homey:manager:flow', id: 'programmatic_trigger' };
const notify = { uri: 'homey:manager:notifications', id: 'create_notification' };
const say = { uri: 'homey:app:com.example.say', id: 'say' };

describe('flow health over the realtime socket', () => {
  let t: TestHub;
  let realtime: Realtime | undefined;
  const events: [string, Flow][] = [];
  beforeAll(async () => {
    t = await startTestHub();
    realtime = await connectRealtime(t);
    const { api } = realtime;
    api.on('homey:manager:flow', (event: string, data: Flow) => events.push([event, data]));
    expect((await ack(api, 'subscribe', 'homey:manager:flow'))[0]).toBeFalsy();
  });
  afterAll(async () => {
    realtime?.close();
    await t.stop();
  });

  /**
   * The events `step` causes, as `[event, flow name, broken]`. A rename of `marker` ends the step: events arrive
   * in order, so any event the step caused has arrived before the marker's.
   */
  async function eventsOf(step: () => Promise<unknown> | unknown, marker: Flow) {
    const from = events.length;
    await step();
    const name = randomUUID();
    await t.call('PUT', `/flow/flow/${marker.id}`, { name });
    await expect.poll(() => events.some(([, flow]) => flow.name === name)).toBe(true);
    marker.name = name;
    return events
      .slice(from)
      .filter(([, flow]) => flow.name !== name)
      .map(([event, flow]) => [event, flow.name, flow.broken]);
  }

  it('publishes exactly the flows whose broken changed when a variable or a card goes away or comes back', async () => {
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Mood', type: 'string', value: 'calm' });
    const token = `[[homey:manager:logic|${variable.body.id}]]`;
    const create = async (name: string, actions: unknown[]) =>
      (await t.call<Flow>('POST', '/flow/flow', { name, trigger: started, conditions: [], actions })).body;
    const usesVariable = await create('Uses the variable', [{ ...notify, args: { text: `Mood is ${token}` } }]);
    const usesCard = await create('Uses the card', [{ ...say, args: { text: 'Hi' } }]);
    const unaffected = await create('Unaffected', [{ ...notify, args: { text: 'Hi' } }]);
    const advanced = await t.call<Flow>('POST', '/flow/advancedflow', {
      name: 'Advanced uses the variable',
      cards: { [randomUUID()]: { type: 'action', x: 0, y: 0, ownerUri: notify.uri, id: notify.id, args: { text: token } } },
    });
    expect([usesVariable.broken, usesCard.broken, unaffected.broken, advanced.body.broken]).toEqual([false, true, false, false]);

    expect(await eventsOf(() => t.call('DELETE', `/logic/variable/${variable.body.id}`), unaffected)).toEqual([
      ['flow.update', 'Uses the variable', true],
      ['advancedflow.update', 'Advanced uses the variable', true],
    ]);
    // The event carries the whole flow as GET answers it.
    const deleted = events.find(([event, flow]) => event === 'flow.update' && flow.id === usesVariable.id)?.[1];
    expect(deleted).toEqual((await t.call<Flow>('GET', `/flow/flow/${usesVariable.id}`)).body);

    // An app registers many cards at once: the flows are compared once, and each changed flow goes out once.
    const registry = t.hub.services.flowCards;
    let comparisons = 0;
    const stopCounting = registry.onChange(() => comparisons++);
    let undo: (() => void)[] = [];
    const registered = await eventsOf(() => {
      undo = Array.from({ length: 30 }, (_, index) =>
        registry.registerCard({ type: 'action', uri: say.uri, id: index === 0 ? say.id : `other_${index}`, title: 'Say' }),
      );
    }, unaffected);
    stopCounting();
    expect(comparisons).toBe(1);
    expect(registered).toEqual([['flow.update', 'Uses the card', false]]);

    const unregister = () => {
      for (const u of undo) u();
    };
    expect(await eventsOf(unregister, unaffected)).toEqual([['flow.update', 'Uses the card', true]]);

    // A change that alters no flow's health publishes nothing.
    expect(
      await eventsOf(() => t.call('POST', '/logic/variable', { name: 'Other', type: 'number', value: 1 }), unaffected),
    ).toEqual([]);
  });
});
