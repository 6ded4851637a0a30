import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
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
    await writeFile(join(dist, 'assets', 'index-abc.js.br'), brotliCompressSync('console.log(1)'));
    await writeFile(join(dist, 'assets', 'index-abc.js.gz'), gzipSync('console.log(1)'));
    process.env.SUPPORT_FORM_DIST = dist;
    cloud = await startTestCloud('pglite');
    const redirect = await fetch(`${cloud.url}/support?code=1&state=2`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/support/?code=1&state=2');
    const page = await fetch(`${cloud.url}/support/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('support-form-root');
    // Node's fetch asks for and decodes br and gzip: each copy must decode to the file itself.
    for (const encoding of ['br', 'gzip']) {
      const asset = await fetch(`${cloud.url}/support/assets/index-abc.js`, { headers: { 'accept-encoding': encoding } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe(encoding);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await asset.text()).toBe('console.log(1)');
    }
    const plain = await fetch(`${cloud.url}/support/assets/index-abc.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe('console.log(1)');
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('says how to build the form when it is not built', async () => {
    process.env.SUPPORT_FORM_DIST = await mkdtemp(join(tmpdir(), 'support-empty-'));
    cloud = await startTestCloud('pglite');
    const page = await fetch(`${cloud.url}/support/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build -w @hearth/support-form');
  });
});
