import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { startTestCloud } from '../../testing';

describe('the support form page at /support', () => {
  let cloud: Cloud | null = null;
  afterEach(async () => {
    await cloud?.stop();
    cloud = null;
    delete process.env.SUPPORT_FORM_DIST;
  });

  it('serves the built form and its assets', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'support-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><div id="support-form-root"></div>');
    await writeFile(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    process.env.SUPPORT_FORM_DIST = dist;
    cloud = await startTestCloud('pglite');
    const redirect = await fetch(`${cloud.url}/support?code=1&state=2`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/support/?code=1&state=2');
    const page = await fetch(`${cloud.url}/support/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('support-form-root');
    const asset = await fetch(`${cloud.url}/support/assets/index-abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('says how to build the form when it is not built', async () => {
    process.env.SUPPORT_FORM_DIST = await mkdtemp(join(tmpdir(), 'support-empty-'));
    cloud = await startTestCloud('pglite');
    const page = await fetch(`${cloud.url}/support/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build -w @hearth/support-form');
  });
});
