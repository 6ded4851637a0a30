import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

const SOCKET = 'homey:app:com.hearth.virtual:virtualsocket';
const NOTIFY = 'homey:manager:notifications:create_notification';
const NODE = (n: number) => `0c5e7d2a-51b4-4c3e-9f1a-00000000000${n}`;

/** What the hub adds to a flow it stores: its id, place and health; nothing it was sent changes. */
const serverFields = (triggerable: boolean) => ({
  id: expect.any(String),
  order: expect.any(Number),
  broken: false,
  triggerable,
});

/**
 * Flows written as the ecosystem's current Web API writes them (cards by fully qualified id, optionally with their
 * owner `uri`; advanced-flow nodes with `ownerUri` and a qualified id, or the id alone) read back unchanged.
 */
describe("flows in the ecosystem's form", () => {
  let t: TestHub;
  let socket: string;
  let folder: string;
  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    socket = await pairDevice(t, SOCKET);
    folder = (await t.call<{ id: string }>('POST', '/flow/flowfolder', { name: 'Hall' })).body.id;
  });
  afterAll(() => t?.stop());

  it('creates, reads, updates and reads a standard flow back as it was sent', async () => {
    const device = `homey:device:${socket}`;
    const sent = {
      name: 'Socket on at dusk',
      enabled: true,
      folder,
      trigger: { id: `${device}:onoff_true`, args: {} },
      conditions: [{ id: `${device}:on`, args: {}, group: 'group1', inverted: true }],
      actions: [
        { id: `${device}:off`, args: {}, group: 'then', delay: null, duration: null },
        {
          uri: 'homey:manager:notifications',
          id: NOTIFY,
          args: { text: 'The socket went on' },
          droptoken: null,
          group: 'else',
          delay: { number: '5', multiplier: 1 },
          duration: null,
        },
      ],
    };
    const created = await t.call<{ id: string; order: number }>('POST', '/flow/flow', sent);
    expect(created.status).toBe(200);
    expect(created.body).toStrictEqual({ ...sent, ...serverFields(false) });
    const { id } = created.body;
    expect((await t.call('GET', `/flow/flow/${id}`)).body).toStrictEqual(created.body);
    expect((await t.call<Record<string, unknown>>('GET', '/flow/flow')).body[id]).toStrictEqual(created.body);

    const changed = {
      ...sent,
      name: 'Socket off after a minute',
      enabled: false,
      folder: null,
      trigger: { id: 'homey:manager:flow:programmatic_trigger', args: {} },
      actions: [{ id: `${device}:off`, args: {}, group: 'then', delay: { number: '1', multiplier: 60 }, duration: null }],
    };
    const updated = await t.call('PUT', `/flow/flow/${id}`, changed);
    expect(updated.status).toBe(200);
    expect(updated.body).toStrictEqual({ ...changed, ...serverFields(true), id, order: created.body.order });
    expect((await t.call('GET', `/flow/flow/${id}`)).body).toStrictEqual(updated.body);

    // A part left out of an update keeps the form it was written in.
    const renamed = await t.call('PUT', `/flow/flow/${id}`, { name: 'Renamed' });
    expect(renamed.body).toStrictEqual({ ...(updated.body as object), name: 'Renamed' });
  });

  it("still answers Hearth's own form (owner uri and the card's own id) as it was sent", async () => {
    const sent = {
      name: 'Split form',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger', args: {} },
      conditions: [],
      actions: [{ uri: `homey:device:${socket}`, id: 'on', args: {}, group: 'then', delay: null, duration: null }],
    };
    const created = await t.call('POST', '/flow/flow', sent);
    expect(created.body).toStrictEqual({ ...sent, enabled: true, folder: null, ...serverFields(true) });
  });

  it('creates, reads, updates and reads an advanced flow back as it was sent', async () => {
    const device = `homey:device:${socket}`;
    const cards: Record<string, Record<string, unknown>> = {
      [NODE(1)]: { type: 'start', x: 0, y: 0, outputSuccess: [NODE(2)] },
      [NODE(2)]: {
        type: 'condition',
        x: 200,
        y: 0,
        ownerUri: device,
        id: `${device}:on`,
        args: {},
        inverted: false,
        droptoken: null,
        outputTrue: [NODE(3)],
        outputFalse: [NODE(4)],
      },
      [NODE(3)]: { type: 'action', x: 400, y: 0, id: `${device}:off`, args: {}, outputSuccess: [], outputError: [] },
      [NODE(4)]: { type: 'action', x: 400, y: 100, ownerUri: 'homey:manager:notifications', id: NOTIFY, args: { text: 'Off' } },
      [NODE(5)]: { type: 'note', x: 0, y: 200, value: 'Checks the socket', color: 'yellow', width: null, height: null },
    };
    const sent = { name: 'Socket check', enabled: true, folder, cards };
    const created = await t.call<{ id: string; order: number }>('POST', '/flow/advancedflow', sent);
    expect(created.status).toBe(200);
    expect(created.body).toStrictEqual({ ...sent, ...serverFields(true) });
    const { id } = created.body;
    expect((await t.call('GET', `/flow/advancedflow/${id}`)).body).toStrictEqual(created.body);
    expect((await t.call<Record<string, unknown>>('GET', '/flow/advancedflow')).body[id]).toStrictEqual(created.body);

    const changed = {
      ...sent,
      name: 'Socket check, on the trigger',
      // Off, so it does not switch the socket back in the test that runs a flow.
      enabled: false,
      cards: {
        ...cards,
        [NODE(1)]: { type: 'trigger', x: 0, y: 0, id: `${device}:onoff_true`, args: {}, outputSuccess: [NODE(2)] },
      },
    };
    const updated = await t.call('PUT', `/flow/advancedflow/${id}`, changed);
    expect(updated.status).toBe(200);
    expect(updated.body).toStrictEqual({ ...changed, ...serverFields(false), id, order: created.body.order });
    expect((await t.call('GET', `/flow/advancedflow/${id}`)).body).toStrictEqual(updated.body);
  });

  it('runs a flow written with qualified ids: its action switches the device', async () => {
    const device = `homey:device:${socket}`;
    const created = await t.call<{ id: string }>('POST', '/flow/flow', {
      name: 'Switch the socket on',
      trigger: { id: 'homey:manager:flow:programmatic_trigger', args: {} },
      conditions: [],
      actions: [{ id: `${device}:on`, args: {}, group: 'then', delay: null, duration: null }],
    });
    expect((await t.call('POST', `/flow/flow/${created.body.id}/trigger`, {})).status).toBe(200);
    // The run goes on after the call answers: the device is switched within its time.
    const read = await until(
      () => t.call<{ capabilitiesObj: { onoff: { value: unknown } } }>('GET', `/devices/device/${socket}`),
      (answer) => answer.body.capabilitiesObj.onoff.value === true,
    );
    expect(read.body.capabilitiesObj.onoff.value).toBe(true);
  });
});
