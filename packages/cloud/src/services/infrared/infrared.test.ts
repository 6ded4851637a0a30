import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, describeOnDatabases, hubSecretQuery, readJson, startTestCloud } from '../../testing';
import { type PackedCode, readDataFile, unpackCodes } from './dataset';
import { decode, isProtocolName, parseProntoHex } from './pronto';

const HUB = '0123456789abcdef01234567';
// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

describeOnDatabases('Infrared database (the open data set)', (backend) => {
  let cloud: Cloud;
  const get = async (path: string) => {
    const response = await call(cloud, 'GET', `/infrared${path}`, null);
    return { status: response.status, body: (await readJson(response)) as Json };
  };
  const ids = (list: { id: string }[]) => list.map((item) => item.id);
  const secret = hubSecretQuery(HUB);
  const file = readDataFile();
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  }, 300_000);
  afterAll(() => cloud.stop());

  it('serves every device and brand of the data file, by type and brand', async () => {
    const brands = (await get('/brand')).body;
    expect(brands.length).toBe(new Set(file.devices.map((d) => d.brand.id)).size);
    expect(brands.length).toBeGreaterThanOrEqual(200);
    const types = (await get('/type')).body;
    expect(types.reduce((sum: number, t: Json) => sum + t.devices, 0)).toBe(file.devices.length);
    expect(file.devices.length).toBeGreaterThanOrEqual(500);
    expect(types.find((t: Json) => t.id === 'airconditioning').devices).toBe(376);
    expect((await get('/device')).body).toHaveLength(file.devices.length);
    const lg = brands.find((b: Json) => b.id === 'lg');
    expect(lg.types).toEqual(expect.arrayContaining(['tv', 'airconditioning']));
    expect(ids((await get('/brand?type=projector')).body)).not.toContain('actron');
    expect(ids((await get('/device?brand=lg&type=tv')).body)).toContain('ha-ip-lg-tv');
    expect((await get('/brand?type=toaster')).status).toBe(400);
    expect((await get('/device?brand=Not%20An%20Id')).status).toBe(400);
  });

  it('searches brands, models and categories, forgiving a typo', async () => {
    const daikin = (await get('/device/search?query=daikin')).body;
    expect(daikin.length).toBe(file.devices.filter((d) => d.brand.id === 'daikin').length);
    // A letter missing, or two swapped, still finds the brand (the app search's one-deletion keys).
    expect(ids((await get('/device/search?query=daikn')).body).sort()).toEqual(ids(daikin).sort());
    expect(ids((await get('/device/search?query=daikni')).body).sort()).toEqual(ids(daikin).sort());
    // Every word must match: the brand's and a model's.
    const model = (await get('/device/search?query=lg%20AKB74295303')).body;
    // The exact model first; the model one typo away (…304) after it.
    expect(ids(model)).toEqual(['smartir-climate-1068', 'smartir-climate-1069']);
    expect(ids((await get('/device/search?query=samsnug')).body).length).toBeGreaterThan(0);
    expect((await get('/device/search?query=xylophonequartz')).body).toEqual([]);
    expect((await get('/device/search')).status).toBe(400);
  });

  it('gives a hub protocol codes as Pronto that decodes to their numbers, and captures as captured', async () => {
    const tv = await get(`/device/ha-ip-lg-tv?secret=${secret}`);
    expect(tv.status).toBe(200);
    expect(tv.body).toMatchObject({
      id: 'ha-ip-lg-tv',
      brand: { id: 'lg', name: 'LG' },
      type: 'tv',
      protocol: 'NEC1',
      device: 4,
      subdevice: 251,
    });
    expect(tv.body.source).toMatchObject({ name: 'github.com/home-assistant-libs/infrared-protocols', licence: 'MIT' });
    const aspect = tv.body.codes.find((code: Json) => code.id === 'aspect');
    expect(aspect).toMatchObject({ name: 'ASPECT', protocol: 'NEC1', device: 4, subdevice: 251, function: 121, repeat: 0 });
    expect(decode('NEC1', parseProntoHex(aspect.pronto)?.once ?? [])).toEqual({ device: 4, subdevice: 251, function: 121 });

    const ac = file.devices.find((d) => d.id === 'smartir-climate-1068');
    const captured = unpackCodes(Buffer.from(ac?.codes ?? '', 'base64')) as PackedCode[];
    const served = (await get(`/device/smartir-climate-1068?secret=${secret}`)).body;
    expect(served).toMatchObject({
      type: 'airconditioning',
      protocol: 'raw',
      device: null,
      subdevice: null,
      source: { licence: 'MIT' },
    });
    expect(served.codes.map((code: Json) => code.pronto)).toEqual(captured.map((code) => code[3]));
    expect(served.codes.every((code: Json) => code.protocol === null && parseProntoHex(code.pronto) !== null)).toBe(true);

    expect((await get('/device/ha-ip-lg-tv?secret=forged')).status).toBe(403);
    expect((await get('/device/ha-ip-lg-tv')).status).toBe(400);
    expect((await get(`/device/no-such-remote?secret=${secret}`)).status).toBe(404);
  });

  it('serves every device but the air conditioners (checked above) with Pronto codes; protocol codes decode to their numbers', async () => {
    const protocols = new Set<string>();
    for (const device of file.devices.filter((d) => d.type !== 'airconditioning')) {
      const served = await get(`/device/${device.id}?secret=${secret}`);
      expect(served.status, device.id).toBe(200);
      expect(served.body.codes.length, device.id).toBeGreaterThan(0);
      for (const code of served.body.codes) {
        const parsed = parseProntoHex(code.pronto);
        expect(parsed, `${device.id} ${code.id}`).not.toBeNull();
        if (code.protocol === null) continue;
        protocols.add(code.protocol);
        expect(isProtocolName(code.protocol)).toBe(true);
        const decoded = decode(code.protocol, parsed?.once ?? []);
        expect(decoded, `${device.id} ${code.id}`).toMatchObject({ device: code.device, function: code.function });
        if (code.subdevice !== null) expect(decoded?.subdevice).toBe(code.subdevice);
      }
    }
    expect([...protocols].sort()).toEqual(
      [
        'Denon-K',
        'NEC1',
        'NEC1-f16',
        'NECx2',
        'Panasonic',
        'Pioneer',
        'Proton',
        'RC5',
        'RC6',
        'Sharp',
        'Sony12',
        'Sony15',
        'Sony20',
      ].sort(),
    );
  }, 300_000);

  it('holds air-conditioner states as learned Pronto captures', () => {
    let states = 0;
    for (const device of file.devices.filter((d) => d.type === 'airconditioning')) {
      const codes = unpackCodes(Buffer.from(device.codes, 'base64'));
      expect(codes.length, device.id).toBeGreaterThan(0);
      expect(codes.every((code) => code.length === 4)).toBe(true);
      // Reading all 130,000 captures takes minutes here: each device's first and last are read.
      for (const code of [codes[0], codes.at(-1)]) expect(parseProntoHex(String(code?.[3])), `${device.id}`).not.toBeNull();
      states += codes.length;
    }
    expect(states).toBe(130_208);
  }, 120_000);
});
