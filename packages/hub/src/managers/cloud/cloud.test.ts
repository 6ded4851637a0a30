import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('cloud manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('reports a hub without a cloud as not enabled', async () => {
    const state = await t.call<{ enabled: boolean; connected: boolean; homeyId: string }>('GET', '/cloud/state');
    expect(state.body).toMatchObject({ enabled: false, connected: false, homeyId: t.hub.context.config.id });
  });

  it('reports an unreachable cloud as not connected', async () => {
    const other = await startTestHub({ cloudUrl: 'http://127.0.0.1:9' });
    try {
      const state = await other.call<{ enabled: boolean; connected: boolean }>('GET', '/cloud/state');
      expect(state.body).toMatchObject({ enabled: true, connected: false });
    } finally {
      await other.stop();
    }
  });
});
