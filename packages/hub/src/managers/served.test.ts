import { fullPath, hubOperations } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { managers } from '.';

/** The entity and settings managers of issue 3 whose operations this suite checks. */
const settingsAndEntityManagers = [
  'alarms',
  'audio',
  'backup',
  'cloud',
  'dashboards',
  'database',
  'experiments',
  'flow',
  'flowtoken',
  'geolocation',
  'google-assistant',
  'i18n',
  'ledring',
  'logic',
  'mobile',
  'moods',
  'notifications',
  'presence',
  'reports',
  'speech-output',
  'system',
  'updates',
  'weather',
] as const;

describe('entity and settings managers', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('are all listed, each with GET /state', () => {
    const names = managers.map((m) => m.name);
    for (const name of settingsAndEntityManagers) {
      expect(names, name).toContain(name);
      expect(hubOperations[name].getState.path, name).toBe('/state');
    }
  });

  it('serve every operation they declare, each at one route', async () => {
    for (const name of settingsAndEntityManagers) {
      for (const [key, operation] of Object.entries(hubOperations[name])) {
        expect(key, `${name}.${key}`).toBe(operation.name);
        expect(t.hub.app.hasRoute({ method: operation.method, url: fullPath(operation) }), `${name}.${key}`).toBe(true);
      }
    }
    // And answer over HTTP as JSON (a route that exists never says route_not_found).
    const state = await t.call('GET', '/weather/state');
    expect(state.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
