import { type Cloud, cloudConfigFromEnv, startCloud } from '@hearth/cloud';
import { STATUS_SECRET_HEADER as CONTRACT_STATUS_SECRET_HEADER } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, CloudAPI, ICON_DEFAULT_SIZE, NotFoundError, ParameterError, STATUS_SECRET_HEADER } from '../node';
import { startTinyServer, type TinyServer } from '../testing/servers';
import { DEMO } from '../testing/world';

const SECRET = 'client-status-secret-0123456789';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#4a4"/></svg>';

let cloud: Cloud;
let web: TinyServer;

beforeAll(async () => {
  cloud = await startCloud({
    ...cloudConfigFromEnv({
      HEARTH_DEMO: '1',
      HEARTH_DEMO_HUBS: '[]',
      HEARTH_REGION: 'eu-west-2',
      HEARTH_STATUS_SECRET: SECRET,
      HEARTH_ICONS_ALLOW_PRIVATE_URLS: '1',
      LOG_LEVEL: 'silent',
    }),
    host: '127.0.0.1',
    port: 0,
    dataDir: 'memory://',
    databaseUrl: null,
  });
  web = await startTinyServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG.replace('#4a4', '#a44'));
  });
}, 120_000);
afterAll(async () => {
  await web?.close();
  await cloud?.stop();
});

const signedIn = async () => {
  const api = new CloudAPI({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, baseUrl: cloud.url });
  await api.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
  return api;
};

describe('icons (real cloud)', () => {
  it('stores an icon and reads it back as SVG, 32 pixels unless another size is asked for', async () => {
    const api = await signedIn();
    const icon = await api.services.icons.createIcon({ svg: SVG });
    expect(icon._id).toMatch(/^[0-9a-f]{24}$/);
    expect(ICON_DEFAULT_SIZE).toBe(32);
    const standard = await api.services.icons.getIcon({ iconId: icon._id });
    expect(standard).toMatch(/^<svg width="32" height="32" /);
    expect(await api.services.icons.getIcon({ iconId: icon._id, size: 128 })).toMatch(/^<svg width="128" height="128" /);
    // Reading needs no token.
    const anonymous = new CloudAPI({ baseUrl: cloud.url });
    expect(await anonymous.services.icons.getIcon({ iconId: icon._id })).toBe(standard);
    const url = anonymous.getIconUrl({ iconId: icon._id });
    expect(url).toBe(`${cloud.url}/icons/icon/${icon._id}?size=32`);
    expect(await (await fetch(url)).text()).toBe(standard);
    expect(anonymous.getIconUrl({ iconId: icon._id, size: 64 })).toBe(`${cloud.url}/icons/icon/${icon._id}?size=64`);
  });

  it('stores an icon fetched from an address', async () => {
    const api = await signedIn();
    const icon = await api.services.icons.createIcon({ url: `${web.url}/icon.svg` });
    expect(await api.services.icons.getIcon({ iconId: icon._id })).toContain('fill="#a44"');
  });

  it('checks parameters before any request and answers the server’s refusals as typed errors', async () => {
    const api = await signedIn();
    const anonymous = new CloudAPI({ baseUrl: cloud.url });
    await expect(anonymous.services.icons.getIcon({} as never)).rejects.toThrow('Missing Parameter: iconId');
    await expect(anonymous.services.icons.getIcon({ iconId: 'a', size: [10] as never })).rejects.toThrow(
      'Invalid Parameter Type: size. Got: array. Expected: integer',
    );
    const missing = await anonymous.services.icons.getIcon({ iconId: '000000000000000000000000' }).catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.statusCode).toBe(404);
    const unsafe = await api.services.icons
      .createIcon({ svg: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' })
      .catch((e) => e);
    expect(unsafe).toBeInstanceOf(APIError);
    expect(unsafe.statusCode).toBe(400);
    expect(unsafe.message).toContain('Event handler attributes (onload)');
    await expect(anonymous.services.icons.createIcon({ svg: SVG })).rejects.toThrow('Missing Token');
  });
});

describe('cloud region (real cloud)', () => {
  it('answers the region to anyone', async () => {
    expect(await new CloudAPI({ baseUrl: cloud.url }).services.region.getRegion()).toEqual({ region: 'eu-west-2' });
  });

  it('reads the status with the secret in its header, and never shows the secret in an error', async () => {
    expect(STATUS_SECRET_HEADER).toBe(CONTRACT_STATUS_SECRET_HEADER);
    const lines: string[] = [];
    const api = new CloudAPI({ baseUrl: cloud.url, debug: (line) => lines.push(line) });
    const status = await api.services.region.getSystemStatus({ secret: SECRET });
    expect(status).toMatchObject({ ok: true, region: 'eu-west-2', database: { ok: true, kind: 'pglite' } });
    expect(status.uptime).toBeGreaterThanOrEqual(0);

    const wrong = await api.services.region.getSystemStatus({ secret: `${SECRET}-wrong` }).catch((e) => e);
    expect(wrong).toBeInstanceOf(APIError);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.message).toBe('Invalid status secret');
    expect(lines.join('\n')).not.toContain(SECRET);

    await expect(api.services.region.getSystemStatus({} as never)).rejects.toThrow(ParameterError);
    await expect(api.services.region.getSystemStatus({} as never)).rejects.toThrow('Missing Parameter: secret');
    await expect(api.services.region.getSystemStatus({ secret: 5 as never })).rejects.toThrow(
      'Invalid Parameter Type: secret. Got: number. Expected: string',
    );
  });
});
