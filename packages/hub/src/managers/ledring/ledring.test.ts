import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('ledring manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('lists screensavers and animations and keeps the chosen screensaver and brightness', async () => {
    const list = await t.call<{ id: string }[]>('GET', '/ledring/screensaver');
    expect(list.body.map((s) => s.id)).toContain('clock');
    expect((await t.call('PUT', '/ledring/option/screensaver', { value: 'clock' })).body).toEqual({ value: 'clock' });
    expect((await t.call('PUT', '/ledring/option/brightness', { value: 30 })).body).toEqual({ value: 30 });
    expect((await t.call('GET', '/ledring/option/screensaver')).body).toEqual({ value: 'clock' });
    expect((await t.call('GET', '/ledring/option/brightness')).body).toEqual({ value: 30 });
    expect((await t.call<{ screensaver: string }>('GET', '/ledring/state')).body.screensaver).toBe('clock');
    expect((await t.call('DELETE', '/ledring/option/screensaver')).status).toBe(204);
    expect((await t.call('DELETE', '/ledring/option/brightness')).status).toBe(204);
    expect((await t.call('GET', '/ledring/option/screensaver')).body).toEqual({ value: 'default' });
    const animations = await t.call<{ id: string }[]>('GET', '/ledring/animation');
    expect(animations.body.length).toBeGreaterThan(0);
    const played = await t.call<{ id: string; endsAt: string }>('POST', '/ledring/animation/pulse/play', {});
    expect(played.body.id).toBe('pulse');
  });

  it('refuses an unknown screensaver and answers 404 for an unknown animation', async () => {
    const answer = await t.call<{ error: string; error_description: string }>('PUT', '/ledring/option/screensaver', {
      value: 'disco',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error_description).toContain('value');
    expect((await t.call('POST', '/ledring/animation/nope/play', {})).status).toBe(404);
  });
});
