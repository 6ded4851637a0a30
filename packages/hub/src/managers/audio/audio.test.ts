import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('audio manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('stores the volume and plays a volume hint at it', async () => {
    expect((await t.call('GET', '/audio/option/volume')).body).toEqual({ value: 50 });
    await t.call('PUT', '/audio/option/volume', { value: 70 });
    const hint = await t.call<{ volume: number; playedAt: string }>('POST', '/audio/volume-hint', {});
    expect(hint.body.volume).toBe(70);
    const explicit = await t.call<{ volume: number }>('POST', '/audio/volume-hint', { volume: 20 });
    expect(explicit.body.volume).toBe(20);
    const state = await t.call<{ volume: number; lastVolumeHint: { volume: number } }>('GET', '/audio/state');
    expect(state.body.volume).toBe(70);
    expect(state.body.lastVolumeHint.volume).toBe(20);
    expect((await t.call('DELETE', '/audio/option/volume')).status).toBe(204);
    expect((await t.call('GET', '/audio/option/volume')).body).toEqual({ value: 50 });
  });

  it('refuses a volume above 100', async () => {
    const answer = await t.call<{ error_description: string }>('PUT', '/audio/option/volume', { value: 101 });
    expect(answer.status).toBe(400);
    expect(answer.body.error_description).toContain('value');
    expect((await t.call('POST', '/audio/volume-hint', { volume: -1 })).status).toBe(400);
  });
});
