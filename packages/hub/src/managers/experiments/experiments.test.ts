import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('experiments manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('lists the experiments and enables and disables them', async () => {
    const list = await t.call<Record<string, { enabled: boolean }>>('GET', '/experiments/experiment');
    expect(Object.keys(list.body).sort()).toEqual(['homekit', 'poweruser', 'ssh', 'virtualdevices']);
    expect(list.body.ssh?.enabled).toBe(false);
    expect((await t.call<{ enabled: boolean }>('PUT', '/experiments/experiment/ssh/enable', {})).body.enabled).toBe(true);
    expect((await t.call('GET', '/experiments/state')).body).toEqual({ enabled: ['ssh'] });
    expect((await t.call<{ enabled: boolean }>('PUT', '/experiments/experiment/ssh/disable', {})).body.enabled).toBe(false);
  });

  it('answers 404 for an unknown experiment', async () => {
    const answer = await t.call<{ error: string }>('PUT', '/experiments/experiment/teleport/enable', {});
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('not_found');
  });
});
