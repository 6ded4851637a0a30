import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHubAPI, Flow, HubAPI, isFlowBroken } from '../node';
import { type RunningHub, startRealHub } from '../testing/servers';

describe('isFlowBroken', () => {
  const cards = [
    { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
    { uri: 'homey:device:a', id: 'turned_on', tokens: [{ id: 'brightness' }] },
    { uri: 'homey:manager:notifications', id: 'create_notification' },
  ];
  const tokens = [{ id: 'homey:manager:logic|v1' }];
  const trigger = { uri: 'homey:device:a', id: 'turned_on' };
  const action = (text: string) => ({ uri: 'homey:manager:notifications', id: 'create_notification', args: { text } });

  it('is not broken when every card and token exists, including the trigger’s own tokens', () => {
    expect(
      isFlowBroken({ trigger, conditions: [], actions: [action('[[homey:manager:logic|v1]] [[brightness]]')] }, cards, tokens),
    ).toBe(false);
    expect(isFlowBroken({ trigger, actions: [action('[[trigger::brightness]]')] }, cards, tokens)).toBe(false);
  });

  it('is broken when a card is missing', () => {
    expect(isFlowBroken({ trigger: { uri: 'homey:device:gone', id: 'turned_on' }, actions: [] }, cards, tokens)).toBe(true);
    expect(isFlowBroken({ trigger, actions: [{ uri: 'homey:app:x', id: 'nope' }] }, cards, tokens)).toBe(true);
  });

  it('is broken when a token is missing, in arguments or as a drop token', () => {
    expect(isFlowBroken({ trigger, actions: [action('[[homey:manager:logic|v2]]')] }, cards, tokens)).toBe(true);
    expect(isFlowBroken({ trigger, actions: [action('[[volume]]')] }, cards, tokens)).toBe(true);
    expect(isFlowBroken({ trigger, conditions: [{ ...trigger, droptoken: 'homey:manager:logic|v9' }] }, cards, tokens)).toBe(
      true,
    );
  });

  it('judges advanced flows by their cards map', () => {
    const advanced = {
      cards: {
        a: { type: 'trigger', ownerUri: 'homey:device:a', id: 'turned_on' },
        b: {
          type: 'action',
          ownerUri: 'homey:manager:notifications',
          id: 'create_notification',
          args: { text: '[[brightness]]' },
        },
        note: { type: 'note' },
      },
    };
    expect(isFlowBroken(advanced, cards, tokens)).toBe(false);
    expect(
      isFlowBroken({ cards: { ...advanced.cards, c: { type: 'action', ownerUri: 'homey:x', id: 'y' } } }, cards, tokens),
    ).toBe(true);
  });
});

describe('flow health against the real hub', () => {
  let hub: RunningHub;
  let api: CoreHubAPI;
  beforeAll(async () => {
    hub = await startRealHub();
    api = await HubAPI.local({ address: hub.url, token: hub.token });
  });
  afterAll(async () => {
    api.destroy();
    await hub.stop();
  });

  it('sees a flow break when the variable its action uses is deleted, as the hub does', async () => {
    const variable = await api.logic.createVariable({ variable: { name: 'Counter', type: 'number', value: 1 } });
    const actions = Object.values(await api.flow.getFlowCardActions());
    const action = actions.find((card) => card.id.endsWith(':create_notification')) ?? actions[0]!;
    // Cards are listed with their full id `<ownerUri>:<id>`; flows refer to them by owner and short id.
    const owner = (action as { ownerUri?: string }).ownerUri ?? action.uri;
    const created = await api.flow.createFlow({
      flow: {
        name: 'Uses a variable',
        trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
        conditions: [],
        actions: [
          { uri: owner, id: action.id.slice(owner.length + 1), args: { text: `[[homey:manager:logic|${variable.id}]]` } },
        ],
      },
    });
    const flow = await api.flow.getFlow({ id: created.id });
    expect(flow).toBeInstanceOf(Flow);
    expect(await (flow as unknown as Flow).isBroken()).toBe(false);
    expect(flow.broken).toBe(false);

    await api.logic.deleteVariable({ id: variable.id });
    const after = await api.flow.getFlow({ id: created.id });
    expect(after.broken).toBe(true);
    expect(await (after as unknown as Flow).isBroken()).toBe(true);
  });

  it("round-trips a flow written in the ecosystem's form through createFlow, getFlow and updateFlow", async () => {
    const sent = {
      name: 'Weekend notice',
      enabled: true,
      folder: null,
      trigger: { id: 'homey:manager:flow:programmatic_trigger', args: {} },
      conditions: [{ id: 'homey:manager:cron:is_weekend', args: {}, group: 'group1', inverted: false }],
      actions: [
        {
          uri: 'homey:manager:notifications',
          id: 'homey:manager:notifications:create_notification',
          args: { text: 'It is the weekend' },
          group: 'then',
          delay: null,
          duration: { number: '2', multiplier: 60 },
        },
      ],
    } satisfies Parameters<typeof api.flow.createFlow>[0]['flow'];
    const created = await api.flow.createFlow({ flow: sent });
    // The item's `uri` is the client's own (`homey:flow:<id>`); the hub adds id, order and health.
    const expected = (flow: object, id: string) => ({
      ...flow,
      id,
      uri: `homey:flow:${id}`,
      order: expect.any(Number),
      broken: false,
      triggerable: true,
    });
    expect(JSON.parse(JSON.stringify(created))).toStrictEqual(expected(sent, created.id));
    const read = await api.flow.getFlow({ id: created.id });
    expect(JSON.parse(JSON.stringify(read))).toStrictEqual(expected(sent, created.id));

    const changed = { ...sent, name: 'Weekday notice', conditions: [{ ...sent.conditions[0], inverted: true }] };
    await api.flow.updateFlow({ id: created.id, flow: changed });
    const again = await api.flow.getFlow({ id: created.id });
    expect(JSON.parse(JSON.stringify(again))).toStrictEqual(expected(changed, created.id));
  });
});
