import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
const started = { uri: 'homey:manager:flow', id: 'programmatic_trigger' };
type Card = { uri: string; id: string; args: Record<string, unknown>; inverted?: boolean };
interface Flow {
  id: string;
  broken: boolean;
  conditions: Card[];
  actions: Card[];
}

/**
 * Hearth's own device card ids that the ecosystem's cards do (onoff_set, dim_set, onoff_toggle, the onoff
 * condition) are retired: flows stored with them are rewritten once, at start, to the ecosystem's ids and keep
 * running; the old ids are not listed any more.
 */
describe('retired device card ids', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-retired-cards-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rewrites stored flows to the ecosystem’s cards at start, which then run', async () => {
    const id = randomBytes(12).toString('hex');
    const first = await startTestHub({ id, dataDir: dir });
    await untilAppRunning(first);
    const light = await pairDevice(first, LIGHT);
    const uri = `homey:device:${light}`;
    const flow = await first.call<Flow>('POST', '/flow/flow', {
      name: 'Old ids',
      trigger: started,
      conditions: [{ uri, id: 'onoff', inverted: true }],
      actions: [
        { uri, id: 'onoff_set', args: { value: true } },
        { uri, id: 'dim_set', args: { value: 0.3 } },
      ],
    });
    const toggler = await first.call<Flow>('POST', '/flow/flow', {
      name: 'Old toggle',
      trigger: started,
      conditions: [],
      actions: [{ uri, id: 'onoff_toggle', args: {} }],
    });
    const [start, dim] = [randomUUID(), randomUUID()];
    const advanced = await first.call<{ id: string }>('POST', '/flow/advancedflow', {
      name: 'Old node',
      cards: {
        [start]: { type: 'start', x: 0, y: 0, outputSuccess: [dim] },
        [dim]: { type: 'action', x: 100, y: 0, ownerUri: uri, id: 'dim_set', args: { value: 0.6 } },
      },
    });
    // Flows with the old ids are whole and run before the rewrite, too.
    expect(flow.body.broken).toBe(false);
    expect(flow.body.actions.map((card) => card.id)).toEqual(['onoff_set', 'dim_set']);
    await first.call('PUT', `/devices/device/${light}/capability/onoff`, { value: false });
    await first.stop();

    const second = await startTestHub({ id, dataDir: dir });
    try {
      await untilAppRunning(second);
      const rewritten = (await second.call<Flow>('GET', `/flow/flow/${flow.body.id}`)).body;
      expect(rewritten.broken).toBe(false);
      expect(rewritten.conditions).toMatchObject([{ uri, id: 'on', args: {}, inverted: true }]);
      expect(rewritten.actions).toMatchObject([
        { uri, id: 'on', args: {} },
        { uri, id: 'dim', args: { dim: 0.3 } },
      ]);
      expect((await second.call<Flow>('GET', `/flow/flow/${toggler.body.id}`)).body.actions).toMatchObject([
        { uri, id: 'toggle', args: {} },
      ]);
      const node = (
        await second.call<{ cards: Record<string, Card & { ownerUri: string }> }>('GET', `/flow/advancedflow/${advanced.body.id}`)
      ).body.cards[dim];
      expect(node).toMatchObject({ ownerUri: uri, id: 'dim', args: { dim: 0.6 } });

      // The rewritten flow runs: the light is off, so "is not on" holds; it turns on and dims.
      const run = await second.call<{ status: string }>('POST', `/flow/flow/${flow.body.id}/trigger`, {});
      expect(run.body.status).toBe('completed');
      const value = (capability: string) => second.hub.services.devices.getCapabilityValue(light, capability);
      await until(
        () => [value('onoff'), value('dim')],
        ([onoff, level]) => onoff === true && level === 0.3,
      );
      // Its trace reads as a person says it: the card's title (inversion worked out) and the device's name.
      const name = (await second.call<{ name: string }>('GET', `/devices/device/${light}`)).body.name;
      const trace = (
        await second.call<{ steps: { kind: string; title?: string }[] }[]>('GET', `/flow/flow/${flow.body.id}/trace`)
      ).body[0];
      expect(trace?.steps.find((step) => step.kind === 'condition')?.title).toBe(`Is off — ${name}`);
      expect(trace?.steps.filter((step) => step.kind === 'action').map((step) => step.title)).toContain(`Turn on — ${name}`);
      expect(
        (await second.call<{ status: string }>('POST', `/flow/advancedflow/${advanced.body.id}/trigger`, {})).body.status,
      ).toBe('completed');
      await until(
        () => value('dim'),
        (level) => level === 0.6,
      );

      // The old ids are not offered; a flow that still names one (a value only a token gives) runs as before.
      const actions = (await second.call<Record<string, unknown>>('GET', '/flow/flowcardaction')).body;
      expect(Object.keys(actions)).toEqual(expect.arrayContaining([`${uri}:on`, `${uri}:dim`]));
      for (const old of ['onoff_set', 'dim_set', 'onoff_toggle']) expect(actions[`${uri}:${old}`]).toBeUndefined();
      expect(Object.keys((await second.call<Record<string, unknown>>('GET', '/flow/flowcardcondition')).body)).not.toContain(
        `${uri}:onoff`,
      );
      const retired = await second.call<{ deprecated: boolean }>('GET', `/flow/flowcardaction/${uri}/onoff_set`);
      expect(retired.body.deprecated).toBe(true);
      const kept = await second.call<Flow>('POST', '/flow/flow', {
        name: 'Still old',
        trigger: started,
        conditions: [],
        actions: [{ uri, id: 'onoff_set', args: { value: false } }],
      });
      expect(kept.body.broken).toBe(false);
      await second.call('POST', `/flow/flow/${kept.body.id}/trigger`, {});
      await until(
        () => value('onoff'),
        (onoff) => onoff === false,
      );
    } finally {
      await second.stop();
    }
  });
});
