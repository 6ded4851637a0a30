import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Mood {
  id: string;
  name: string;
  preset: string | null;
  zone: string | null;
  devices: Record<string, Record<string, unknown>>;
}
interface ErrorBody {
  error: string;
  error_description: string;
}

describe('moods manager', () => {
  let t: TestHub;
  const events: HubEvent[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((e) => events.push(e));
  });
  afterAll(() => t.stop());

  it('stores moods, sets them and deletes them', async () => {
    const lamp = randomUUID();
    const created = await t.call<Mood>('POST', '/moods/mood', { name: 'Cosy', devices: { [lamp]: { onoff: true, dim: 0.3 } } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Cosy',
      preset: null,
      zone: null,
      devices: { [lamp]: { onoff: true, dim: 0.3 } },
    });
    const updated = await t.call<Mood>('PUT', `/moods/mood/${created.body.id}`, { name: 'Cosier', preset: 'evening' });
    expect(updated.body).toMatchObject({ name: 'Cosier', preset: 'evening' });
    expect((await t.call<Mood>('GET', `/moods/mood/${created.body.id}`)).body.name).toBe('Cosier');
    expect(Object.keys((await t.call<Record<string, Mood>>('GET', '/moods/mood')).body)).toEqual([created.body.id]);
    const set = await t.call<{ devices: number }>('POST', `/moods/mood/${created.body.id}/set`, {});
    expect(set.body.devices).toBe(1);
    expect(events.find((e) => e.event === 'mood.set')?.data).toMatchObject({ id: created.body.id });
    expect((await t.call<{ lastSet: { id: string } }>('GET', '/moods/state')).body.lastSet.id).toBe(created.body.id);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['mood.create', 'mood.update']));
    expect((await t.call('DELETE', `/moods/mood/${created.body.id}`)).status).toBe(204);
    expect((await t.call('GET', `/moods/mood/${created.body.id}`)).status).toBe(404);
    expect((await t.call('POST', `/moods/mood/${created.body.id}/set`, {})).status).toBe(404);
    expect((await t.call('DELETE', `/moods/mood/${created.body.id}`)).status).toBe(404);
  });

  it('requires name and devices, uuid device keys and uuid ids', async () => {
    expect((await t.call<ErrorBody>('POST', '/moods/mood', { devices: {} })).body.error_description).toBe(
      'Missing Parameter: name',
    );
    expect((await t.call<ErrorBody>('POST', '/moods/mood', { name: 'x' })).body.error_description).toBe(
      'Missing Parameter: devices',
    );
    const badKey = await t.call<ErrorBody>('POST', '/moods/mood', { name: 'x', devices: { lamp: { onoff: true } } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error_description).toContain('devices.lamp');
    const badValue = await t.call<ErrorBody>('POST', '/moods/mood', { name: 'x', devices: { [randomUUID()]: { onoff: [1] } } });
    expect(badValue.status).toBe(400);
    const badId = await t.call<ErrorBody>('GET', '/moods/mood/not-a-uuid');
    expect(badId.status).toBe(400);
    expect(badId.body.error_description).toContain('id');
    expect((await t.call('PUT', `/moods/mood/${randomUUID()}`, { name: 'y' })).status).toBe(404);
    expect((await t.call<Record<string, Mood>>('GET', '/moods/mood')).body).toEqual({});
  });
});
