import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
type Json = Record<string, unknown>;

/**
 * Device cards with the ecosystem's ids and arguments (each capability's `$flow`, in Hearth's catalogue), as
 * flows written by the ecosystem's clients name them: `on`, `off`, `toggle`, `dim`, the `on` condition.
 */
describe("the ecosystem's device cards", () => {
  let t: TestHub;
  let light: string;
  const uri = () => `homey:device:${light}`;
  const value = async (capability: string) =>
    (await t.call<{ capabilitiesObj: Record<string, Json> }>('GET', `/devices/device/${light}`)).body.capabilitiesObj[capability]
      ?.value;
  /** Creates a flow started by hand running `actions` after `conditions`, runs it, and answers its run. */
  const run = async (conditions: Json[], actions: Json[]) => {
    const flow = await t.call<{ id: string; broken: boolean }>('POST', '/flow/flow', {
      name: 'Ecosystem cards',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
      conditions,
      actions,
    });
    expect(flow.body.broken).toBe(false);
    return (await t.call<{ status: string; conditionsPassed?: boolean }>('POST', `/flow/flow/${flow.body.id}/trigger`, {})).body;
  };

  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    light = await pairDevice(t, LIGHT);
  });
  afterAll(() => t.stop());

  it('offers them with the catalogue’s titles and the ecosystem’s arguments, only to devices of the classes they are for', async () => {
    const actions = await t.call<Record<string, { title: string; args: Json[]; duration: boolean }>>(
      'GET',
      '/flow/flowcardaction',
    );
    expect(actions.body[`${uri()}:on`]).toMatchObject({ title: 'Turn on' });
    expect(actions.body[`${uri()}:toggle`]).toMatchObject({ title: 'Toggle on/off' });
    expect(actions.body[`${uri()}:dim`]).toMatchObject({ title: 'Set brightness to', duration: true });
    expect(actions.body[`${uri()}:dim`]?.args[0]).toMatchObject({ name: 'dim', type: 'range', min: 0, max: 1 });
    // onoff's "Open" is a card for window coverings, not for a light.
    expect(actions.body[`${uri()}:open`]).toBeUndefined();
    const conditions = await t.call<Record<string, { title: string }>>('GET', '/flow/flowcardcondition');
    expect(conditions.body[`${uri()}:on`]?.title).toBe('Is !{{on|off}}');
  });

  it('runs flows using on, off, toggle, dim and the on condition, in the split and the qualified forms', async () => {
    expect(await run([], [{ uri: uri(), id: 'on' }])).toMatchObject({ status: 'completed' });
    await until(
      () => value('onoff'),
      (v) => v === true,
    );
    expect(await run([], [{ id: `${uri()}:off` }])).toMatchObject({ status: 'completed' });
    await until(
      () => value('onoff'),
      (v) => v === false,
    );
    await run([], [{ uri: uri(), id: `${uri()}:toggle` }]);
    await until(
      () => value('onoff'),
      (v) => v === true,
    );
    await run([], [{ uri: uri(), id: 'dim', args: { dim: 0.3 } }]);
    await until(
      () => value('dim'),
      (v) => v === 0.3,
    );
    await run([], [{ uri: uri(), id: 'dim_relative', args: { dim: 0.9 } }]);
    await until(
      () => value('dim'),
      (v) => v === 1,
    );
    // The on condition holds while the light is on: inverted, it stops the flow, which then switches nothing.
    await run([{ uri: uri(), id: 'on', inverted: true }], [{ uri: uri(), id: 'off' }]);
    await run([{ uri: uri(), id: 'on' }], [{ uri: uri(), id: 'dim', args: { dim: 0.5 } }]);
    await until(
      () => value('dim'),
      (v) => v === 0.5,
    );
    expect(await value('onoff')).toBe(true);
  });
});
