import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { pairDevice, untilAppRunning } from '../testing/pairing';
import { until } from '../testing/until';
import type { DomainEventName, DomainEvents } from './bus';

/**
 * The domain bus as the hub's parts see it: each change made over HTTP arrives once, typed, naming its source.
 */
describe('domain events of a running hub', () => {
  let t: TestHub;
  const seen: { name: DomainEventName; payload: unknown }[] = [];
  const of = <K extends DomainEventName>(name: K) =>
    seen.filter((event) => event.name === name).map((event) => event.payload as DomainEvents[K]);

  beforeAll(async () => {
    t = await startTestHub();
    for (const name of [
      'presence.changed',
      'user.asleep',
      'variable.added',
      'variable.changed',
      'variable.removed',
      'webhook.received',
      'zone.active',
      'device.added',
      'device.removed',
      'device.updated',
      'app.state',
    ] as const) {
      t.hub.context.bus.on(name, 'test', (payload) => seen.push({ name, payload }));
    }
  });
  afterAll(() => t.stop());

  it('announces presence and sleep changes, forced triggers included, with the session that made them', async () => {
    const owner = t.hub.context.users.owner();
    await t.call('PUT', '/presence/me/present', { value: true });
    await t.call('PUT', '/presence/me/present', { value: true }); // no change: nothing announced
    await t.call('PUT', '/presence/me/present', { opts: { forceFlowTrigger: true } });
    await t.call('PUT', '/presence/me/asleep', { value: true });
    expect(of('presence.changed').map((e) => [e.userId, e.present, e.previous, e.forced, e.source.kind])).toEqual([
      [owner?.id, true, false, false, 'api'],
      [owner?.id, true, true, true, 'api'],
    ]);
    expect(of('user.asleep').map((e) => [e.asleep, e.previous])).toEqual([[true, false]]);
  });

  it('announces variables added, changed (only when the value changed) and removed, and webhook calls', async () => {
    const created = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Guests', type: 'number', value: 0 });
    await t.call('PUT', `/logic/variable/${created.body.id}`, { value: 2 });
    await t.call('PUT', `/logic/variable/${created.body.id}`, { name: 'Visitors' });
    await t.call('DELETE', `/logic/variable/${created.body.id}`);
    await t.call('GET', '/logic/webhook/doorbell?tag=front');
    expect(of('variable.added')).toEqual([{ variableId: created.body.id }]);
    expect(of('variable.changed').map((e) => [e.variableId, e.value, e.previous])).toEqual([[created.body.id, 2, 0]]);
    expect(of('variable.removed')).toEqual([{ variableId: created.body.id }]);
    expect(of('webhook.received').map((e) => [e.event, e.tag])).toEqual([['doorbell', 'front']]);
  });

  it('announces devices added, renamed and removed, and a zone active while a motion sensor in it reports motion', async () => {
    await untilAppRunning(t);
    const zone = await t.call<{ id: string }>('POST', '/zones/zone', {
      name: 'Hall',
      icon: 'hallway',
      parent: t.hub.services.zones.root()?.id,
    });
    const camera = await pairDevice(t, 'homey:app:com.hearth.virtual:virtualipcamera', { zoneId: zone.body.id });
    expect(of('device.added').map((e) => [e.deviceId, e.zoneId])).toEqual([[camera, zone.body.id]]);
    await t.call('PUT', `/devices/device/${camera}`, { name: 'Hall camera' });
    expect(of('device.updated')).toEqual([{ deviceId: camera, changed: ['name'] }]);

    const report = (value: boolean) =>
      t.hub.services.devices.reportCapabilityValue(camera, 'alarm_motion', value, { source: { kind: 'system' } });
    report(true);
    report(true);
    expect((await t.call<{ active: boolean }>('GET', `/zones/zone/${zone.body.id}`)).body.active).toBe(true);
    report(false);
    expect(of('zone.active')).toEqual([
      { zoneId: zone.body.id, active: true },
      { zoneId: zone.body.id, active: false },
    ]);
    await t.call('DELETE', `/devices/device/${camera}`);
    expect(of('device.removed').map((e) => e.deviceId)).toEqual([camera]);
  });

  it('announces an app stopping and starting again', async () => {
    seen.length = 0;
    await t.call('PUT', '/apps/app/com.hearth.virtual/disable');
    await until(
      () => t.call<{ state: string }>('GET', '/apps/app/com.hearth.virtual'),
      (app) => app.body.state === 'stopped',
    );
    await t.call('PUT', '/apps/app/com.hearth.virtual/enable');
    await untilAppRunning(t);
    const states = of('app.state').filter((e) => e.appId === 'com.hearth.virtual');
    expect(states.map((e) => e.state)).toContain('stopped');
    expect(states.at(-1)).toMatchObject({ state: 'running', crashed: false });
  });
});
