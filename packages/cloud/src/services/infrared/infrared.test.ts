import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, describeOnDatabases, hubSecretQuery, readJson, startTestCloud } from '../../testing';
import { prontoHex } from './pronto';

const HUB = '0123456789abcdef01234567';
// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

describeOnDatabases('Infrared database', (backend) => {
  let cloud: Cloud;
  const get = async (path: string) => {
    const response = await call(cloud, 'GET', `/infrared${path}`, null);
    return { status: response.status, body: (await readJson(response)) as Json };
  };
  const ids = (list: { id: string }[]) => list.map((item) => item.id);
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  it('lists brands and types, each narrowed by the other', async () => {
    const brands = (await get('/brand')).body;
    expect(brands.map((b: Json) => b.name)).toEqual([
      'Sample Acoustics',
      'Sample Beam',
      'Sample Box',
      'Sample Climate',
      'Sample Vision',
    ]);
    expect(brands.find((b: Json) => b.id === 'sample-vision')).toEqual({
      id: 'sample-vision',
      name: 'Sample Vision',
      types: ['tv'],
      devices: 2,
    });
    expect(ids((await get('/brand?type=projector')).body)).toEqual(['sample-beam']);
    expect((await get('/type')).body).toEqual([
      { id: 'airconditioning', devices: 1 },
      { id: 'audio', devices: 2 },
      { id: 'projector', devices: 1 },
      { id: 'settopbox', devices: 1 },
      { id: 'tv', devices: 2 },
    ]);
    expect((await get('/type?brand=sample-acoustics')).body).toEqual([{ id: 'audio', devices: 2 }]);
    expect((await get('/brand?type=toaster')).status).toBe(400);
  });

  it('lists devices by brand, type and name', async () => {
    expect(ids((await get('/device?brand=sample-vision')).body)).toEqual(['sample-vision-lumo-40', 'sample-vision-lumo-55']);
    expect(ids((await get('/device?type=settopbox')).body)).toEqual(['sample-box-tuner-t1']);
    expect(ids((await get('/device?name=RECEIVER')).body)).toEqual(['sample-acoustics-receiver-r7']);
    expect((await get('/device?brand=sample-vision&type=audio')).body).toEqual([]);
    // A name with LIKE's wildcards matches them literally.
    expect((await get('/device?name=%25')).body).toEqual([]);
    expect((await get('/device?brand=Not%20An%20Id')).status).toBe(400);
  });

  it('searches brand and device names, forgiving a typo', async () => {
    expect(ids((await get('/device/search?query=lumo')).body)).toEqual(['sample-vision-lumo-40', 'sample-vision-lumo-55']);
    // Every word must match; an exact word ranks before a prefix.
    expect(ids((await get('/device/search?query=vision%2055')).body)).toEqual(['sample-vision-lumo-55']);
    expect(ids((await get('/device/search?query=soundbsr')).body)).toEqual(['sample-acoustics-soundbar-s2']);
    expect(ids((await get('/device/search?query=projectr')).body)).toEqual(['sample-beam-cinema-hd']);
    expect((await get('/device/search?query=xylophone')).body).toEqual([]);
    expect((await get('/device/search')).status).toBe(400);
  });

  it('gives a hub a device with its codes in Pronto hex, and nobody else', async () => {
    const secret = hubSecretQuery(HUB);
    const device = await get(`/device/sample-vision-lumo-40?secret=${secret}`);
    expect(device.status).toBe(200);
    expect(device.body).toMatchObject({
      id: 'sample-vision-lumo-40',
      brand: { id: 'sample-vision', name: 'Sample Vision' },
      type: 'tv',
      protocol: 'NEC1',
      device: 4,
      subdevice: null,
      source: { licence: 'CC0-1.0' },
    });
    expect(device.body.source.note).toContain('Sample data');
    const power = device.body.codes.find((code: Json) => code.id === 'power');
    expect(power).toEqual({
      id: 'power',
      name: 'Power',
      function: 8,
      pronto: prontoHex({ protocol: 'NEC1', device: 4, subdevice: null, function: 8 }),
    });
    expect(power.pronto.startsWith('0000 006D 0022 0002 0156 00AB')).toBe(true);
    expect((await get('/device/sample-vision-lumo-40?secret=forged')).status).toBe(403);
    expect((await get('/device/sample-vision-lumo-40')).status).toBe(400);
    expect((await get(`/device/sample-nothing?secret=${secret}`)).status).toBe(404);
  });
});
