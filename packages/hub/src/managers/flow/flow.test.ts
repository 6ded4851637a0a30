import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Flow {
  id: string;
  name: string;
  enabled: boolean;
  folder: string | null;
  broken: boolean;
  triggerable: boolean;
  conditions: { group: string; inverted: boolean }[];
  actions: { group: string; duration: unknown; delay: unknown }[];
}
interface Folder {
  id: string;
  name: string;
  parent: string | null;
}
interface ErrorBody {
  error: string;
  error_description: string;
}

const started = { uri: 'homey:manager:flow', id: 'programmatic_trigger' };
const say = { uri: 'homey:app:com.example.say', id: 'say' };

describe('flow manager', () => {
  let t: TestHub;
  const events: HubEvent[] = [];
  const spoken: unknown[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((e) => events.push(e));
  });
  afterAll(() => t.stop());

  it('stores a flow with defaults, computing broken and triggerable', async () => {
    const created = await t.call<Flow>('POST', '/flow/flow', {
      name: 'Evening',
      trigger: started,
      conditions: [],
      actions: [],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Evening', enabled: true, folder: null, broken: false, triggerable: true });
    expect(created.body).toMatchObject({ trigger: started, conditions: [], actions: [] });
    expect(events.some((e) => e.event === 'flow.create' && e.uri === 'homey:manager:flow')).toBe(true);

    const withApp = await t.call<Flow>('PUT', `/flow/flow/${created.body.id}`, {
      conditions: [{ uri: 'homey:app:com.example.say', id: 'is_quiet' }],
      actions: [{ ...say, args: { text: 'Hi' }, delay: { multiplier: 60, number: '5' } }],
    });
    expect(withApp.body.broken).toBe(true);
    expect(withApp.body.conditions[0]).toMatchObject({ group: 'group1', inverted: false });
    expect(withApp.body.actions[0]).toMatchObject({ group: 'then', duration: null, delay: { multiplier: 60, number: '5' } });

    // The app's cards arrive: the flow is whole again.
    const registry = t.hub.services.flowCards;
    const undo = [
      registry.registerCard({ type: 'condition', uri: say.uri, id: 'is_quiet', title: 'It is quiet' }),
      registry.registerCard({
        type: 'action',
        ...say,
        title: 'Say something',
        args: [
          { name: 'text', type: 'text' },
          { name: 'voice', type: 'autocomplete' },
        ],
        run: ({ args }) => {
          spoken.push(args.text);
          return { spoken: args.text };
        },
        autocomplete: ({ query }) => [{ name: `Voice ${query}` }],
      }),
    ];
    expect((await t.call<Flow>('GET', `/flow/flow/${created.body.id}`)).body.broken).toBe(false);
    const list = await t.call<Record<string, Flow>>('GET', '/flow/flow');
    expect(list.body[created.body.id]?.name).toBe('Evening');

    // A variable token used in the args: broken once the variable is gone.
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Mood', type: 'string', value: 'calm' });
    await t.call('PUT', `/flow/flow/${created.body.id}`, {
      actions: [{ ...say, args: { text: `Mood is [[homey:manager:logic|${variable.body.id}]]` } }],
    });
    expect((await t.call<Flow>('GET', `/flow/flow/${created.body.id}`)).body.broken).toBe(false);
    await t.call('DELETE', `/logic/variable/${variable.body.id}`);
    expect((await t.call<Flow>('GET', `/flow/flow/${created.body.id}`)).body.broken).toBe(true);

    // Cards: listed, read, run and autocompleted.
    const actions = await t.call<Record<string, { title: string; tokens: unknown[] }>>('GET', '/flow/flowcardaction');
    expect(actions.body[`${say.uri}:say`]?.title).toBe('Say something');
    const card = await t.call<{ id: string; ownerUri: string; title: string; uri?: string }>(
      'GET',
      `/flow/flowcardaction/${say.uri}/say`,
    );
    expect(card.body).toMatchObject({ id: `${say.uri}:say`, ownerUri: say.uri, title: 'Say something' });
    expect(card.body.uri).toBeUndefined();
    const triggers = await t.call<Record<string, unknown>>('GET', '/flow/flowcardtrigger');
    expect(Object.keys(triggers.body)).toContain('homey:manager:flow:programmatic_trigger');
    expect((await t.call('GET', '/flow/flowcardtrigger/homey:manager:flow/programmatic_trigger')).status).toBe(200);
    expect((await t.call<Record<string, unknown>>('GET', '/flow/flowcardcondition')).body).toHaveProperty(`${say.uri}:is_quiet`);
    expect((await t.call('GET', `/flow/flowcardcondition/${say.uri}/is_quiet`)).status).toBe(200);
    const run = await t.call('POST', `/flow/flowcardaction/${say.uri}/say/run`, {
      args: { text: 'Hello', voice: { name: 'Voice A' } },
    });
    expect(run.body).toEqual({ spoken: 'Hello' });
    // Arguments are required unless a card says otherwise; a missing one is named.
    const missing = await t.call<ErrorBody>('POST', `/flow/flowcardaction/${say.uri}/say/run`, { args: { text: 'Hi' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error_description).toContain('args.voice');
    expect(spoken).toEqual(['Hello']);
    expect((await t.call<ErrorBody>('POST', `/flow/flowcardcondition/${say.uri}/is_quiet/run`, {})).status).toBe(501);
    const suggestions = await t.call('GET', `/flow/flowcardaction/${say.uri}/say/autocomplete?name=voice&query=A`);
    expect(suggestions.body).toEqual([{ name: 'Voice A' }]);
    expect((await t.call('GET', `/flow/flowcardaction/${say.uri}/say/autocomplete?name=text&query=A`)).status).toBe(404);
    for (const u of undo) u();
    expect((await t.call('GET', `/flow/flowcardaction/${say.uri}/say`)).status).toBe(404);

    // A broken flow does not run; a whole one does, and answers its trace; sharing stores a copy.
    const trigger = await t.call<ErrorBody>('POST', `/flow/flow/${created.body.id}/trigger`, {});
    expect(trigger.status).toBe(409);
    expect(trigger.body.error_description).toContain('broken');
    await t.call('PUT', `/flow/flow/${created.body.id}`, { conditions: [], actions: [] });
    const run2 = await t.call<{ status: string; flowId: string }>('POST', `/flow/flow/${created.body.id}/trigger`, {});
    expect(run2.status).toBe(200);
    expect(run2.body).toMatchObject({ status: 'completed', flowId: created.body.id });
    const test = await t.call<{ status: string }>('POST', '/flow/flow/test', {
      flow: { name: 'T', trigger: started, conditions: [], actions: [] },
      tokens: {},
      sessionId: 's1',
    });
    expect(test.status).toBe(200);
    expect(test.body.status).toBe('completed');
    const share = await t.call<{ id: string; flow: { name: string } }>('POST', `/flow/flow/${created.body.id}/share`, {});
    expect(share.body.flow.name).toBe('Evening');
    expect((await t.call<{ flows: number }>('GET', '/flow/state')).body.flows).toBe(1);
    expect((await t.call('DELETE', `/flow/flow/${created.body.id}`)).status).toBe(204);
    expect((await t.call('GET', `/flow/flow/${created.body.id}`)).status).toBe(404);
  });

  it('validates flows, naming the field', async () => {
    const base = { name: 'X', trigger: started, conditions: [], actions: [] };
    const cases: [unknown, string][] = [
      [{ ...base, name: '' }, 'name'],
      [{ ...base, actions: [{ ...say, duration: { multiplier: 30, number: '1' } }] }, 'actions.0.duration.multiplier'],
      [{ ...base, actions: [{ ...say, delay: { multiplier: 60, number: 5 } }] }, 'actions.0.delay.number'],
      [{ ...base, conditions: [{ ...say, group: 'group4' }] }, 'conditions.0.group'],
      [{ ...base, actions: [{ ...say, group: 'maybe' }] }, 'actions.0.group'],
      [{ name: 'X', conditions: [], actions: [] }, 'trigger'],
      [{ name: 'X', trigger: started, actions: [] }, 'conditions'],
      [{ name: 'X', trigger: started, conditions: [] }, 'actions'],
      [{ ...base, trigger: { id: 'programmatic_trigger' } }, 'trigger.uri'],
      [{ ...base, actions: [{ id: 'say' }] }, 'actions.0.uri'],
      [{ ...base, folder: 'nope' }, 'folder'],
    ];
    for (const [body, field] of cases) {
      const answer = await t.call<ErrorBody>('POST', '/flow/flow', body);
      expect(answer.status, field).toBe(400);
      expect(answer.body.error_description, field).toContain(field);
    }
    expect((await t.call<Record<string, Flow>>('GET', '/flow/flow')).body).toEqual({});
    expect((await t.call('PUT', '/flow/flow/nope', { name: 'Y' })).status).toBe(404);
    expect((await t.call('DELETE', '/flow/flow/nope')).status).toBe(404);
    expect((await t.call('POST', '/flow/flow/nope/trigger', {})).status).toBe(404);
    expect((await t.call('POST', '/flow/flow/nope/share', {})).status).toBe(404);
  });

  it('accepts cards named by their full id, as card lists name them', async () => {
    const triggers = await t.call<Record<string, { id: string; ownerUri: string }>>('GET', '/flow/flowcardtrigger');
    const card = triggers.body['homey:manager:flow:programmatic_trigger'];
    const created = await t.call<Flow & { trigger: { uri: string; id: string } }>('POST', '/flow/flow', {
      name: 'By full id',
      trigger: { id: card?.id },
      conditions: [],
      actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: 'Hi' } }],
    });
    expect(created.status).toBe(200);
    // Answered as it was written (ecosystem-form.test.ts checks the whole flow).
    expect(created.body.trigger).toStrictEqual({ id: 'homey:manager:flow:programmatic_trigger', args: {} });
    expect(created.body).toMatchObject({ broken: false, triggerable: true });
    expect((await t.call('DELETE', `/flow/flow/${created.body.id}`)).status).toBe(204);
    // The owner and the fully qualified id together, as the ecosystem's clients send them, name the same card.
    const both = await t.call<Flow & { trigger: { uri: string; id: string } }>('POST', '/flow/flow', {
      name: 'Owner and full id',
      trigger: { uri: 'homey:manager:flow', id: 'homey:manager:flow:programmatic_trigger' },
      conditions: [],
      actions: [
        {
          uri: 'homey:manager:notifications',
          id: 'homey:manager:notifications:create_notification',
          args: { text: 'Hi' },
        },
      ],
    });
    expect(both.body.trigger).toMatchObject({ uri: 'homey:manager:flow', id: 'homey:manager:flow:programmatic_trigger' });
    expect(both.body).toMatchObject({ broken: false });
    expect((await t.call<{ status: string }>('POST', `/flow/flow/${both.body.id}/trigger`, {})).body.status).toBe('completed');
    // A full id of another owner than the one given is a mistake, named.
    const mixed = await t.call<ErrorBody>('POST', '/flow/flow', {
      name: 'Mixed',
      trigger: { uri: 'homey:manager:logic', id: 'homey:manager:flow:programmatic_trigger' },
      conditions: [],
      actions: [],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error_description).toContain('trigger.id');
    expect((await t.call('DELETE', `/flow/flow/${both.body.id}`)).status).toBe(204);
  });

  it("accepts cards with their own item uri, as the ecosystem's clients copy them from card lists", async () => {
    const trigger = 'homey:manager:flow:programmatic_trigger';
    const notify = 'homey:manager:notifications:create_notification';
    const created = await t.call<Flow & { trigger: { uri: string; id: string }; actions: { uri: string; id: string }[] }>(
      'POST',
      '/flow/flow',
      {
        name: 'Item uris',
        trigger: { id: trigger, uri: `homey:flowcardtrigger:${trigger}`, args: {} },
        conditions: [],
        actions: [{ id: notify, uri: `homey:flowcardaction:${notify}`, args: { text: 'Hi' }, group: 'then' }],
      },
    );
    expect(created.status).toBe(200);
    expect(created.body.trigger).toMatchObject({ uri: 'homey:manager:flow', id: 'programmatic_trigger' });
    expect(created.body.actions[0]).toMatchObject({ uri: 'homey:manager:notifications', id: 'create_notification' });
    expect(created.body).toMatchObject({ broken: false, triggerable: true });
    const run = await t.call<{ status: string; steps: { kind: string; outcome: string }[] }>(
      'POST',
      `/flow/flow/${created.body.id}/trigger`,
      {},
    );
    expect(run.body.status).toBe('completed');
    expect(run.body.steps.some((step) => step.kind === 'action' && step.outcome === 'done')).toBe(true);
    // The item uri says the card's kind: an action's in the trigger slot is named, as is an id it does not name.
    const wrongKind = await t.call<ErrorBody>('POST', '/flow/flow', {
      name: 'Wrong kind',
      trigger: { id: notify, uri: `homey:flowcardaction:${notify}` },
      conditions: [],
      actions: [],
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error_description).toContain('trigger.uri');
    const otherCard = await t.call<ErrorBody>('PUT', `/flow/flow/${created.body.id}`, {
      actions: [{ id: 'homey:manager:logic:set_variable', uri: `homey:flowcardaction:${notify}` }],
    });
    expect(otherCard.status).toBe(400);
    expect(otherCard.body.error_description).toContain('actions.0.id');
    expect((await t.call('DELETE', `/flow/flow/${created.body.id}`)).status).toBe(204);
  });

  it('reads advanced flow card nodes that carry only their fully qualified id, and runs them', async () => {
    const [start, action] = [randomUUID(), randomUUID()];
    const created = await t.call<Flow & { cards: Record<string, { ownerUri?: string; id?: string }> }>(
      'POST',
      '/flow/advancedflow',
      {
        name: 'Qualified nodes',
        cards: {
          [start]: { type: 'start', x: 0, y: 0, outputSuccess: [action] },
          [action]: {
            type: 'action',
            x: 200,
            y: 0,
            id: 'homey:manager:notifications:create_notification',
            args: { text: 'From a node' },
          },
        },
      },
    );
    expect(created.status).toBe(200);
    expect(created.body.broken).toBe(false);
    expect(created.body.cards[action]).toStrictEqual({
      type: 'action',
      x: 200,
      y: 0,
      id: 'homey:manager:notifications:create_notification',
      args: { text: 'From a node' },
    });
    const run = await t.call<{ status: string; steps: { kind: string; outcome: string }[] }>(
      'POST',
      `/flow/advancedflow/${created.body.id}/trigger`,
      {},
    );
    expect(run.body.status).toBe('completed');
    expect(run.body.steps.some((step) => step.kind === 'action' && step.outcome === 'done')).toBe(true);
    expect((await t.call('DELETE', `/flow/advancedflow/${created.body.id}`)).status).toBe(204);
  });

  it('keeps a folder tree and moves what a deleted folder held to its parent', async () => {
    const home = await t.call<Folder>('POST', '/flow/flowfolder', { name: 'Home' });
    const lights = await t.call<Folder>('POST', '/flow/flowfolder', { name: 'Lights', parent: home.body.id });
    expect(lights.body.parent).toBe(home.body.id);
    const flow = await t.call<Flow>('POST', '/flow/flow', {
      name: 'Lamp',
      folder: lights.body.id,
      trigger: started,
      conditions: [],
      actions: [],
    });
    expect(flow.body.folder).toBe(lights.body.id);
    const cycle = await t.call<ErrorBody>('PUT', `/flow/flowfolder/${home.body.id}`, { parent: lights.body.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error_description).toContain('parent');
    expect((await t.call<ErrorBody>('POST', '/flow/flowfolder', { name: '' })).body.error_description).toContain('name');
    expect((await t.call<ErrorBody>('POST', '/flow/flowfolder', {})).body.error_description).toBe('Missing Parameter: name');
    const renamed = await t.call<Folder>('PUT', `/flow/flowfolder/${lights.body.id}`, { name: 'Lamps' });
    expect(renamed.body.name).toBe('Lamps');
    expect((await t.call<Record<string, Folder>>('GET', '/flow/flowfolder')).body[lights.body.id]?.name).toBe('Lamps');
    expect((await t.call('DELETE', `/flow/flowfolder/${lights.body.id}`)).status).toBe(204);
    expect((await t.call<Flow>('GET', `/flow/flow/${flow.body.id}`)).body.folder).toBe(home.body.id);
    expect((await t.call('GET', `/flow/flowfolder/${lights.body.id}`)).status).toBe(404);
    expect((await t.call('DELETE', `/flow/flowfolder/${lights.body.id}`)).status).toBe(404);
    expect((await t.call('PUT', `/flow/flowfolder/${lights.body.id}`, { name: 'x' })).status).toBe(404);
  });

  it('describes flows with their cards in the API reference', async () => {
    type Schema = { properties?: Record<string, Schema>; propertyNames?: { pattern?: string } };
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>>;
    };
    const answer = (path: string) => doc.paths[path]?.get?.responses['200']?.content['application/json']?.schema;
    const flow = answer('/api/manager/flow/flow/{id}');
    expect(Object.keys(flow?.properties ?? {})).toEqual(expect.arrayContaining(['trigger', 'conditions', 'actions', 'broken']));
    expect(Object.keys(flow?.properties?.trigger?.properties ?? {})).toEqual(expect.arrayContaining(['uri', 'id', 'args']));
    const advanced = answer('/api/manager/flow/advancedflow/{id}');
    expect(Object.keys(advanced?.properties ?? {})).toEqual(expect.arrayContaining(['cards', 'broken', 'triggerable']));
    // Card keys are uuids: the rule is in the schema, so clients can see it.
    expect(advanced?.properties?.cards?.propertyNames?.pattern).toMatch(/^\^\[0-9a-fA-F\]\{8\}/);
  });

  it('stores advanced flows with uuid card keys', async () => {
    const key = randomUUID();
    const created = await t.call<Flow & { cards: Record<string, unknown> }>('POST', '/flow/advancedflow', {
      name: 'Advanced',
      cards: { [key]: { type: 'trigger', x: 10, y: 20, ownerUri: started.uri, id: started.id } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ broken: false, triggerable: true, enabled: true });
    expect(created.body.cards).toEqual({ [key]: { type: 'trigger', x: 10, y: 20, ownerUri: started.uri, id: started.id } });
    const broken = await t.call<Flow>('PUT', `/flow/advancedflow/${created.body.id}`, {
      cards: { [key]: { type: 'action', x: 0, y: 0, ownerUri: 'homey:app:gone', id: 'x' } },
    });
    expect(broken.body).toMatchObject({ broken: true, triggerable: false });
    // A node may carry its card's fully qualified id beside its owner: run as that card, answered as written.
    const qualified = await t.call<Flow & { cards: Record<string, { id: string }> }>(
      'PUT',
      `/flow/advancedflow/${created.body.id}`,
      { cards: { [key]: { type: 'trigger', x: 0, y: 0, ownerUri: started.uri, id: `${started.uri}:${started.id}` } } },
    );
    expect(qualified.body).toMatchObject({ broken: false, triggerable: true });
    expect(qualified.body.cards[key]?.id).toBe(`${started.uri}:${started.id}`);
    const otherOwner = await t.call<ErrorBody>('PUT', `/flow/advancedflow/${created.body.id}`, {
      cards: { [key]: { type: 'trigger', x: 0, y: 0, ownerUri: 'homey:manager:logic', id: `${started.uri}:${started.id}` } },
    });
    expect(otherOwner.status).toBe(400);
    expect(otherOwner.body.error_description).toContain(`cards.${key}.id`);
    await t.call('PUT', `/flow/advancedflow/${created.body.id}`, {
      cards: { [key]: { type: 'action', x: 0, y: 0, ownerUri: 'homey:app:gone', id: 'x' } },
    });
    expect((await t.call<Record<string, Flow>>('GET', '/flow/advancedflow')).body[created.body.id]?.name).toBe('Advanced');
    expect((await t.call<Flow>('GET', `/flow/advancedflow/${created.body.id}`)).body.name).toBe('Advanced');
    expect((await t.call('POST', `/flow/advancedflow/${created.body.id}/trigger`, {})).status).toBe(409);
    const badKey = await t.call<ErrorBody>('POST', '/flow/advancedflow', {
      name: 'A',
      cards: { one: { type: 'trigger', x: 0, y: 0 } },
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error_description).toBe('Invalid Parameter: cards.one. Keys must be uuids');
    const badType = await t.call<ErrorBody>('POST', '/flow/advancedflow', {
      name: 'A',
      cards: { [key]: { type: 'magic', x: 0, y: 0 } },
    });
    expect(badType.status).toBe(400);
    expect((await t.call<ErrorBody>('POST', '/flow/advancedflow', { name: 'A' })).body.error_description).toBe(
      'Missing Parameter: cards',
    );
    expect((await t.call('DELETE', `/flow/advancedflow/${created.body.id}`)).status).toBe(204);
    expect((await t.call('GET', `/flow/advancedflow/${created.body.id}`)).status).toBe(404);
    expect((await t.call('POST', `/flow/advancedflow/${created.body.id}/trigger`, {})).status).toBe(404);
  });
});
