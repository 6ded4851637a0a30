import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Dashboard {
  id: string;
  name: string;
  columns?: unknown[];
  widgets?: Record<string, unknown>;
  lines?: Record<string, unknown>;
}
interface ErrorBody {
  error: string;
  error_description: string;
}

describe('dashboards manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('stores dashboards in the older columns form and the newer widgets/lines form', async () => {
    const older = await t.call<Dashboard>('POST', '/dashboards/dashboard', {
      name: 'Columns',
      columns: [{ id: 'c1', widgets: [{ id: 'w1' }] }],
    });
    expect(older.status).toBe(200);
    expect(older.body.columns).toEqual([{ id: 'c1', widgets: [{ id: 'w1' }] }]);
    const widget = randomUUID();
    const line = randomUUID();
    const newer = await t.call<Dashboard>('POST', '/dashboards/dashboard', {
      name: 'Canvas',
      widgets: { [widget]: { type: 'clock', x: 0, y: 0, width: 2, height: 2, settings: { seconds: true } } },
      lines: { [line]: { x1: 0, x2: 10, y1: 0, y2: 0 } },
    });
    expect(newer.body.widgets?.[widget]).toMatchObject({ type: 'clock', settings: { seconds: true } });
    const renamed = await t.call<Dashboard>('PUT', `/dashboards/dashboard/${newer.body.id}`, { name: 'Hall' });
    expect(renamed.body).toMatchObject({ name: 'Hall', lines: { [line]: { x1: 0, x2: 10 } } });
    expect(Object.keys((await t.call<Record<string, Dashboard>>('GET', '/dashboards/dashboard')).body)).toHaveLength(2);
    expect((await t.call<Dashboard>('GET', `/dashboards/dashboard/${older.body.id}`)).body.name).toBe('Columns');
    expect((await t.call<{ dashboards: number }>('GET', '/dashboards/state')).body.dashboards).toBe(2);
    expect((await t.call('DELETE', `/dashboards/dashboard/${older.body.id}`)).status).toBe(204);
    expect((await t.call('GET', `/dashboards/dashboard/${older.body.id}`)).status).toBe(404);
  });

  it('validates dashboards, naming the field', async () => {
    const noContent = await t.call<ErrorBody>('POST', '/dashboards/dashboard', { name: 'x' });
    expect(noContent.status).toBe(400);
    expect(noContent.body.error_description).toContain('columns');
    expect((await t.call<ErrorBody>('POST', '/dashboards/dashboard', { columns: [] })).body.error_description).toBe(
      'Missing Parameter: name',
    );
    const badKey = await t.call<ErrorBody>('POST', '/dashboards/dashboard', {
      name: 'x',
      widgets: { w: { type: 'clock', x: 0, y: 0, width: 1, height: 1 } },
      lines: {},
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error_description).toContain('widgets.w');
    const incompleteLine = randomUUID();
    const badLine = await t.call<ErrorBody>('POST', '/dashboards/dashboard', {
      name: 'x',
      widgets: {},
      lines: { [incompleteLine]: { x1: 0 } },
    });
    expect(badLine.status).toBe(400);
    expect(badLine.body.error_description).toBe(`Missing Parameter: lines.${incompleteLine}.x2`);
    const badLineKey = await t.call<ErrorBody>('POST', '/dashboards/dashboard', {
      name: 'x',
      widgets: {},
      lines: { l1: { x1: 0, x2: 1, y1: 0, y2: 1 } },
    });
    expect(badLineKey.status).toBe(400);
    expect(badLineKey.body.error_description).toMatch(/^Invalid Parameter: lines\.l1\b/);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const badId = await t.call<ErrorBody>(method, '/dashboards/dashboard/nope', method === 'PUT' ? { name: 'y' } : undefined);
      expect(badId.status).toBe(400);
      expect(badId.body.error).toBe('invalid_parameter');
      expect(badId.body.error_description).toMatch(/^Invalid Parameter: id\./);
    }
    expect((await t.call('PUT', `/dashboards/dashboard/${randomUUID()}`, { name: 'y' })).status).toBe(404);
    expect((await t.call('DELETE', `/dashboards/dashboard/${randomUUID()}`)).status).toBe(404);
  });

  it('rejects non-uuid widget and line keys on update, keeping the stored dashboard', async () => {
    const created = await t.call<Dashboard>('POST', '/dashboards/dashboard', { name: 'Keys', widgets: {}, lines: {} });
    const path = `/dashboards/dashboard/${created.body.id}`;
    const badWidget = await t.call<ErrorBody>('PUT', path, {
      name: 'Renamed',
      widgets: { w2: { type: 'clock', x: 0, y: 0, width: 1, height: 1 } },
    });
    expect(badWidget.status).toBe(400);
    expect(badWidget.body.error_description).toMatch(/^Invalid Parameter: widgets\.w2\b/);
    const badLine = await t.call<ErrorBody>('PUT', path, { name: 'Renamed', lines: { l2: { x1: 0, x2: 1, y1: 0, y2: 1 } } });
    expect(badLine.status).toBe(400);
    expect(badLine.body.error_description).toMatch(/^Invalid Parameter: lines\.l2\b/);
    expect((await t.call<Dashboard>('GET', path)).body).toEqual(created.body);
  });

  it('serves app widgets from the registry, with autocomplete', async () => {
    expect((await t.call('GET', '/dashboards/appwidget')).body).toEqual({});
    expect((await t.call('GET', '/dashboards/appwidget/clock')).status).toBe(404);
    t.hub.services.widgets.register({
      id: 'com.example.clock:clock',
      ownerId: 'com.example.clock',
      ownerUri: 'homey:app:com.example.clock',
      ownerName: 'Clock',
      name: 'Clock',
      settings: [{ id: 'city', type: 'autocomplete' }],
      height: 100,
      autocomplete: ({ query }) => [{ id: query, name: `City ${query}` }],
    });
    const list = await t.call<Record<string, { name: string }>>('GET', '/dashboards/appwidget');
    expect(list.body['com.example.clock:clock']?.name).toBe('Clock');
    expect((await t.call<{ height: number }>('GET', '/dashboards/appwidget/com.example.clock:clock')).body.height).toBe(100);
    const suggestions = await t.call(
      'GET',
      '/dashboards/appwidget/com.example.clock:clock/autocomplete?settingId=city&query=Ams',
    );
    expect(suggestions.body).toEqual([{ id: 'Ams', name: 'City Ams' }]);
    expect((await t.call('GET', '/dashboards/appwidget/nope/autocomplete?settingId=city&query=x')).status).toBe(404);
  });

  it('keeps widget state stores, merging unless asked to replace', async () => {
    expect((await t.call('GET', '/dashboards/widgetstore/w1')).status).toBe(404);
    expect((await t.call('GET', '/dashboards/widgetstore/w1/state')).status).toBe(404);
    expect((await t.call('POST', '/dashboards/widgetstore/w1/state', { state: { a: 1 } })).body).toEqual({ a: 1 });
    expect((await t.call('POST', '/dashboards/widgetstore/w1/state', { state: { b: 2 } })).body).toEqual({ a: 1, b: 2 });
    expect((await t.call('POST', '/dashboards/widgetstore/w1/state', { state: { c: 3 }, replace: true })).body).toEqual({ c: 3 });
    expect((await t.call('GET', '/dashboards/widgetstore/w1/state')).body).toEqual({ c: 3 });
    expect((await t.call<{ id: string }>('GET', '/dashboards/widgetstore/w1')).body.id).toBe('w1');
    expect(Object.keys((await t.call<Record<string, unknown>>('GET', '/dashboards/widgetstore')).body)).toEqual(['w1']);
    expect((await t.call<ErrorBody>('POST', '/dashboards/widgetstore/w1/state', {})).body.error_description).toBe(
      'Missing Parameter: state',
    );
  });
});
