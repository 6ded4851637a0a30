import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubWithAppDevice } from '../../../testing/devkit';
import type { TestHub } from '../../../testing/hub';
import { until } from '../../../testing/until';

type Json = Record<string, unknown>;
interface ImageObj {
  id: string;
  ownerUri: string;
  url: string;
  lastUpdated: string;
}
interface DeviceImage {
  type: string;
  id: string;
  title: string | null;
  imageObj: ImageObj;
}

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'com.test.camera');
const APP = 'com.test.camera';

/** The still the fixture's doorbell streams (see its device.js). */
function still(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47]).copy(bytes);
  for (let i = 4; i < size; i++) bytes[i] = (i + seed) % 251;
  return bytes;
}

/**
 * Images of an app's devices through a real app process and HTTP: the app registers a camera still it streams
 * and album art from a file, the device lists them, and the hub serves their bytes at each image's `url`.
 */
describe('device images of an app', () => {
  let t: TestHub;
  let deviceId: string;

  const images = async () => (await t.call<{ images: DeviceImage[] }>('GET', `/devices/device/${deviceId}`)).body.images ?? [];
  const bytesOf = (url: string, token: string | null = t.token) =>
    fetch(`${t.url}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    ({ t, deviceId } = await hubWithAppDevice(fixture, APP, 'doorbell'));
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists the camera still and album art the device shows, here and among the images', async () => {
    const shown = await until(images, (list) => list.length === 2);
    expect(shown).toEqual([
      { type: 'camera', id: 'front', title: 'Front door', imageObj: expect.objectContaining({ ownerUri: `homey:app:${APP}` }) },
      { type: 'media', id: 'albumart', title: null, imageObj: expect.objectContaining({ ownerUri: `homey:app:${APP}` }) },
    ]);
    for (const { imageObj } of shown) expect(imageObj.url).toBe(`/api/image/${imageObj.id}`);
    const listed = (await t.call<Record<string, ImageObj>>('GET', '/images/image')).body;
    for (const { imageObj } of shown) expect(listed[imageObj.id]).toEqual(imageObj);
  });

  it('serves a streamed image whole, larger than one chunk of the app protocol, and new bytes after update()', async () => {
    const [camera] = await until(images, (list) => list.length === 2);
    const url = camera?.imageObj.url as string;
    const first = await bytesOf(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await first.arrayBuffer()).equals(still(1_300_000, 0))).toBe(true);

    await t.call('POST', `/flow/flowcardaction/${encodeURIComponent(`homey:app:${APP}`)}/snap/run`, { args: {} });
    const second = await bytesOf(url);
    expect(Buffer.from(await second.arrayBuffer()).equals(still(1_300_000, 1))).toBe(true);
  });

  it('serves an image from a file of the app with its content type', async () => {
    const [, art] = await until(images, (list) => list.length === 2);
    const answer = await bytesOf(art?.imageObj.url as string);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/svg+xml');
    expect(await answer.text()).toBe(readFileSync(join(fixture, 'assets', 'cover.svg'), 'utf8'));
  });

  it('answers only sessions that may read devices, and 404 for an unknown image', async () => {
    const [camera] = await until(images, (list) => list.length === 2);
    const url = camera?.imageObj.url as string;
    expect((await bytesOf(url, null)).status).toBe(401);
    expect((await bytesOf(url, t.sessionFor('owner', ['homey.zone.readonly']))).status).toBe(403);
    const unknown = await bytesOf('/api/image/nope');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Json).error).toBe('not_found');
  });

  it('drops the images of a stopped app; its next process registers new ones', async () => {
    const before = await until(images, (list) => list.length === 2);
    const old = before[0]?.imageObj.url as string;
    expect((await t.call('POST', `/apps/app/${APP}/restart`)).status).toBe(200);
    const after = await until(images, (list) => list.length === 2 && list[0]?.imageObj.url !== old);
    expect((await bytesOf(old)).status).toBe(404);
    expect((await bytesOf(after[0]?.imageObj.url as string)).status).toBe(200);
  });
});
