import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, describeOnDatabases, internalToken, readJson, signIn, startTestCloud, TEST_PUBLIC_URL } from '../../testing';

const LAMP = '0123456789abcdef01234567';
const SENSOR = 'fedcba9876543210fedcba98';
const VARIABLE = '5b1c1d1e-0000-4000-8000-00000000000a';
const ZONE = '7a7a7a7a-0000-4000-8000-00000000000b';

/** A household's flow: it names two devices, a variable and a zone, in uris, arguments and tokens. */
const evening = {
  name: 'Evening',
  trigger: { uri: `homey:device:${SENSOR}`, id: 'alarm_motion_true' },
  conditions: [
    { uri: 'homey:manager:zones', id: 'zone_active', args: { zone: { id: ZONE, name: "Anna's bedroom" } }, group: 'group1' },
  ],
  actions: [
    { id: `homey:device:${LAMP}:dim_set`, args: { value: 0.4 }, group: 'then' },
    {
      uri: 'homey:manager:notifications',
      id: 'create_notification',
      args: { text: `It is [[homey:device:${SENSOR}|measure_temperature]] °C, counter [[homey:manager:logic|${VARIABLE}]]` },
    },
    { uri: 'homey:manager:logic', id: 'variable_set', args: { variable: { id: VARIABLE, name: 'Counter' }, value: 1 } },
    { uri: 'homey:app:com.hearth.chime', id: 'play', args: { melody: { id: 'westminster', name: 'Westminster' } } },
  ],
};

describeOnDatabases('Cloud flow sharing', (backend) => {
  let cloud: Cloud;
  let user: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    user = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  it("stores a shared flow with placeholders for the household's ids, lists its cards, and serves it to anyone", async () => {
    const response = await call(cloud, 'POST', '/flow/flow', user, { data: evening });
    expect(response.status).toBe(201);
    const shared = await readJson(response);
    expect(shared).toMatchObject({ type: 'flow', url: `${TEST_PUBLIC_URL}/flow/flow/${shared.id}` });
    const text = JSON.stringify(shared.flow);
    for (const personal of [LAMP, SENSOR, VARIABLE, ZONE, "Anna's bedroom", 'Counter']) expect(text).not.toContain(personal);
    expect(shared.flow.trigger).toEqual({ uri: 'homey:device:{{device:1}}', id: 'alarm_motion_true' });
    expect(shared.flow.actions[0]).toMatchObject({ uri: 'homey:device:{{device:2}}', id: 'dim_set', args: { value: 0.4 } });
    expect(shared.flow.actions[1].args.text).toBe(
      'It is [[homey:device:{{device:1}}|measure_temperature]] °C, counter [[homey:manager:logic|{{variable:1}}]]',
    );
    expect(shared.flow.actions[2].args.variable).toEqual({ id: '{{variable:1}}' });
    expect(shared.flow.conditions[0].args.zone).toEqual({ id: '{{zone:1}}' });
    // An app's own choices are no household data.
    expect(shared.flow.actions[3].args.melody).toEqual({ id: 'westminster', name: 'Westminster' });
    expect(shared.placeholders).toEqual([
      { placeholder: '{{device:1}}', kind: 'device', usedBy: ['alarm_motion_true', 'create_notification'] },
      { placeholder: '{{zone:1}}', kind: 'zone', usedBy: ['zone_active'] },
      { placeholder: '{{device:2}}', kind: 'device', usedBy: ['dim_set'] },
      { placeholder: '{{variable:1}}', kind: 'variable', usedBy: ['create_notification', 'variable_set'] },
    ]);
    expect(shared.cards).toContainEqual({ type: 'action', id: 'homey:device:{{device:2}}:dim_set' });
    expect(shared.cards).toHaveLength(6);

    const read = await fetch(`${cloud.url}/flow/flow/${shared.id}`);
    expect(read.status).toBe(200);
    expect(await readJson(read)).toEqual(shared);
  });

  it('shares advanced flows, and lets a hub share with the provider’s credentials', async () => {
    const hub = await internalToken(cloud);
    const response = await call(cloud, 'POST', '/flow/flow', hub, {
      data: {
        name: 'Canvas',
        cards: {
          '11111111-1111-4111-8111-111111111111': {
            type: 'trigger',
            x: 0,
            y: 0,
            ownerUri: `homey:device:${SENSOR}`,
            id: 'alarm_motion_true',
            outputSuccess: ['22222222-2222-4222-8222-222222222222'],
          },
          '22222222-2222-4222-8222-222222222222': {
            type: 'action',
            x: 1,
            y: 0,
            ownerUri: `homey:device:${LAMP}`,
            id: 'onoff_set',
            args: { value: true },
          },
        },
      },
    });
    expect(response.status).toBe(201);
    const shared = await readJson(response);
    expect(shared.type).toBe('advancedflow');
    expect(shared.flow.cards['22222222-2222-4222-8222-222222222222'].ownerUri).toBe('homey:device:{{device:2}}');
    expect(JSON.stringify(shared.flow)).not.toContain(LAMP);
  });

  it('refuses what is no flow, a caller without a token, and answers 404 for an unknown share', async () => {
    for (const data of [{ name: 'x' }, { ...evening, trigger: 'nope' }, { ...evening, conditions: [{}] }]) {
      const refused = await call(cloud, 'POST', '/flow/flow', user, { data });
      expect(refused.status).toBe(400);
      expect((await readJson(refused)).error).toMatch(/^(invalid_parameter|missing_parameter|invalid_parameter_type)$/);
    }
    expect((await call(cloud, 'POST', '/flow/flow', null, { data: evening })).status).toBe(401);
    const unknown = await fetch(`${cloud.url}/flow/flow/nothing-here`);
    expect(unknown.status).toBe(404);
    expect((await readJson(unknown)).error).toBe('not_found');
  });
});
