import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';

interface ImageObj {
  id: string;
  ownerUri: string;
  url: string;
}

/** The still of a simulated camera (the built-in virtual IP camera), listed among the images and served by the hub. */
describe('a simulated camera still', () => {
  let t: TestHub;
  let camera: string;

  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    camera = await pairDevice(t, 'homey:app:com.hearth.virtual:virtualipcamera');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('is listed among the images and served at its url as an SVG naming the camera, to sessions that may read devices', async () => {
    const listed = (await t.call<Record<string, ImageObj>>('GET', '/images/image')).body[`${camera}-snapshot`];
    expect(listed).toMatchObject({ ownerUri: `homey:device:${camera}`, url: `/api/image/${camera}-snapshot` });
    const still = await fetch(`${t.url}${listed?.url}`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(still.status).toBe(200);
    expect(still.headers.get('content-type')).toBe('image/svg+xml');
    expect(await still.text()).toContain('<title>Virtual IP camera</title>');
    const refused = await fetch(`${t.url}${listed?.url}`, {
      headers: { authorization: `Bearer ${t.sessionFor('owner', ['homey.zone.readonly'])}` },
    });
    expect(refused.status).toBe(403);
    // A device that is no camera has no still.
    const socket = await pairDevice(t, 'homey:app:com.hearth.virtual:socket');
    expect(
      (await fetch(`${t.url}/api/image/${socket}-snapshot`, { headers: { authorization: `Bearer ${t.token}` } })).status,
    ).toBe(404);
  });
});
