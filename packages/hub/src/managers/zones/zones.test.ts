import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { seedDemoHub } from '../../runtime/seed';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Zone {
  id: string;
  name: string;
  parent: string | null;
  order: number;
  active: boolean;
  icon: string;
}

describe('zones manager over HTTP', () => {
  let t: TestHub;
  let root: Zone;
  const events: HubEvent[] = [];

  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((event) => events.push(event));
  });
  afterAll(() => t.stop());

  it('has a root zone from the first start', async () => {
    const zones = await t.call<Record<string, Zone>>('GET', '/zones/zone');
    expect(zones.status).toBe(200);
    const roots = Object.values(zones.body).filter((zone) => zone.parent === null);
    expect(roots).toHaveLength(1);
    root = roots[0]!;
    expect(root).toMatchObject({ name: 'Home', icon: 'home', active: false });
    const state = await t.call('GET', '/zones/state');
    expect(state.body).toEqual({ rootZoneId: root.id, zoneCount: 1 });
  });

  it('requires name, icon and parent, and a parent that exists', async () => {
    const noIcon = await t.call('POST', '/zones/zone', { name: 'Kitchen', parent: root.id });
    expect(noIcon.status).toBe(400);
    expect(noIcon.body).toMatchObject({ error: 'missing_parameter', error_description: 'Missing Parameter: icon' });
    const noName = await t.call('POST', '/zones/zone', { icon: 'kitchen', parent: root.id });
    expect(noName.body).toMatchObject({ statusCode: 400, error_description: 'Missing Parameter: name' });
    const blank = await t.call('POST', '/zones/zone', { name: '   ', icon: 'kitchen', parent: root.id });
    expect(blank.body).toMatchObject({ statusCode: 400, error: 'invalid_parameter' });
    expect((blank.body as { error_description: string }).error_description).toContain('zone.name');
    const noParent = await t.call('POST', '/zones/zone', { name: 'Kitchen', icon: 'kitchen' });
    expect(noParent.body).toMatchObject({ statusCode: 400, error_description: 'Missing Parameter: parent' });
    const unknownParent = await t.call('POST', '/zones/zone', { name: 'Kitchen', icon: 'kitchen', parent: 'nope' });
    expect(unknownParent.status).toBe(400);
    expect((unknownParent.body as { error_description: string }).error_description).toContain('zone.parent');
    expect((await t.call<Record<string, Zone>>('GET', '/zones/zone')).body).toEqual({ [root.id]: root });
  });

  it('creates, reads, moves and deletes zones in a tree, publishing each change', async () => {
    const floor = await t.call<Zone>('POST', '/zones/zone', { name: 'Ground floor', icon: 'floor', parent: root.id });
    expect(floor.status).toBe(200);
    expect(floor.body).toMatchObject({ name: 'Ground floor', icon: 'floor', parent: root.id, order: 0, active: false });
    const kitchen = await t.call<Zone>('POST', '/zones/zone', { name: 'Kitchen', icon: 'kitchen', parent: floor.body.id });
    const hall = await t.call<Zone>('POST', '/zones/zone', { name: 'Hall', icon: 'hallway', parent: floor.body.id });
    expect(hall.body.order).toBe(kitchen.body.order + 1);
    expect(events.find((e) => e.event === 'zone.create' && (e.data as Zone).id === kitchen.body.id)).toEqual({
      uri: 'homey:manager:zones',
      event: 'zone.create',
      data: kitchen.body,
      scope: 'homey.zone.readonly',
    });

    expect((await t.call('GET', `/zones/zone/${kitchen.body.id}`)).body).toEqual(kitchen.body);
    expect((await t.call('GET', '/zones/zone/unknown')).status).toBe(404);

    const renamed = await t.call<Zone>('PUT', `/zones/zone/${kitchen.body.id}`, { name: 'Big kitchen', id: 'ignored' });
    expect(renamed.body).toMatchObject({ id: kitchen.body.id, name: 'Big kitchen', parent: floor.body.id });
    expect(events.at(-1)).toMatchObject({ event: 'zone.update', data: renamed.body });

    const cycle = await t.call('PUT', `/zones/zone/${floor.body.id}`, { parent: kitchen.body.id });
    expect(cycle.status).toBe(400);
    expect((cycle.body as { error_description: string }).error_description).toContain('zone.parent');
    const rootParent = await t.call('PUT', `/zones/zone/${root.id}`, { parent: floor.body.id });
    expect(rootParent.status).toBe(400);
    const moved = await t.call<Zone>('PUT', `/zones/zone/${kitchen.body.id}`, { parent: root.id });
    expect(moved.body.parent).toBe(root.id);

    const withChildren = await t.call('DELETE', `/zones/zone/${floor.body.id}`);
    expect(withChildren.status).toBe(409);
    expect(withChildren.body).toMatchObject({ error: 'conflict', statusCode: 409 });
    expect((await t.call('DELETE', `/zones/zone/${root.id}`)).status).toBe(403);

    expect((await t.call('DELETE', `/zones/zone/${hall.body.id}`)).status).toBe(204);
    expect(events.at(-1)).toMatchObject({ event: 'zone.delete', data: { id: hall.body.id } });
    expect((await t.call('DELETE', `/zones/zone/${floor.body.id}`)).status).toBe(204);
    expect((await t.call('DELETE', `/zones/zone/${floor.body.id}`)).status).toBe(404);
    const left = await t.call<Record<string, Zone>>('GET', '/zones/zone');
    expect(Object.keys(left.body).sort()).toEqual([root.id, kitchen.body.id].sort());
  });

  it('refuses to delete a zone that still holds devices (409) until they are moved', async () => {
    seedDemoHub(t.hub, { historyDays: 0 });
    const zones = Object.values((await t.call<Record<string, Zone>>('GET', '/zones/zone')).body);
    const kitchen = zones.find((zone) => zone.name === 'Kitchen')!;
    const other = zones.find((zone) => zone.name === 'Office')!;
    const refused = await t.call('DELETE', `/zones/zone/${kitchen.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict', error_description: expect.stringContaining('devices') });
    const devices = Object.values((await t.call<Record<string, { id: string; zone: string }>>('GET', '/devices/device')).body);
    for (const device of devices.filter((d) => d.zone === kitchen.id)) {
      expect((await t.call('PUT', `/devices/device/${device.id}`, { zone: other.id })).status).toBe(200);
    }
    expect((await t.call('DELETE', `/zones/zone/${kitchen.id}`)).status).toBe(204);
  });

  it('keeps zones across a restart and creates no second root', async () => {
    const dataDir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/hearth-zones-`);
    const first = await startTestHub({ dataDir, id: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    const made = await first.call<Zone>('POST', '/zones/zone', {
      name: 'Attic',
      icon: 'attic',
      parent: (await first.call<{ rootZoneId: string }>('GET', '/zones/state')).body.rootZoneId,
    });
    await first.stop();
    const second = await startTestHub({ dataDir, id: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    const zones = await second.call<Record<string, Zone>>('GET', '/zones/zone');
    expect(Object.keys(zones.body)).toHaveLength(2);
    expect(zones.body[made.body.id]).toEqual(made.body);
    await second.stop();
  });

  it('needs homey.zone to change zones and homey.zone.readonly to read them', async () => {
    const reader = t.sessionFor('manager', ['homey.zone.readonly']);
    expect((await t.call('GET', '/zones/zone', undefined, reader)).status).toBe(200);
    const denied = await t.call('POST', '/zones/zone', { name: 'X', icon: 'x', parent: root.id }, reader);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: 'missing_scopes' });
    expect((await t.call('GET', '/zones/zone', undefined, null)).status).toBe(401);
  });
});
