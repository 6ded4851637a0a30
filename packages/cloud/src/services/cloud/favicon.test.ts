import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { startTestCloud } from '../../testing';

describe("the cloud's icon", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud('pglite', { devMailbox: true });
  });
  afterAll(() => cloud.stop());

  it('is served at /favicon.svg, and /favicon.ico (which browsers ask for unbidden) leads there instead of a 404', async () => {
    const svg = await fetch(`${cloud.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(await svg.text()).toContain('<title>Hearth</title>');
    const ico = await fetch(`${cloud.url}/favicon.ico`, { redirect: 'manual' });
    expect(ico.status).toBe(301);
    expect(ico.headers.get('location')).toBe('/favicon.svg');
  });

  it('is linked from the server-rendered pages', async () => {
    for (const path of ['/cloud/password-forgotten', '/dev/mail']) {
      const page = await (await fetch(`${cloud.url}${path}`)).text();
      expect(page, path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    }
  });
});
