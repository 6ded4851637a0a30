import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuiltPages, registerBuiltPages } from './built-pages';
import { createApiServer } from './index';

const SCRIPT = 'console.log("the app");'.repeat(10);

async function serve(directory: string, extra: Partial<BuiltPages> = {}) {
  const app = await createApiServer({ title: 'test', version: '1.0.0', description: 'built pages test' });
  registerBuiltPages(app, {
    directory,
    base: '/app/',
    pages: ['/', '/things/:id'],
    contentSecurityPolicy: "default-src 'self'",
    rootFiles: { '/app-sw.js': { 'service-worker-allowed': '/' } },
    notBuilt: { title: 'The test app', workspace: '@hearth/test-app', note: 'The API still answers.' },
    ...extra,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, url };
}

async function build() {
  const dist = await mkdtemp(join(tmpdir(), 'built-pages-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(dist, 'app-sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(join(dist, 'manifest.webmanifest'), '{"name":"Test"}');
  await writeFile(join(dist, 'assets', 'index-abc.js'), SCRIPT);
  await writeFile(join(dist, 'assets', 'index-abc.js.br'), brotliCompressSync(SCRIPT));
  await writeFile(join(dist, 'assets', 'index-abc.js.gz'), gzipSync(SCRIPT));
  await writeFile(join(dist, 'assets', 'plain-def.css'), 'body{}');
  await writeFile(join(tmpdir(), 'built-pages-secret.txt'), 'outside the build');
  return dist;
}

describe('registerBuiltPages: a built single-page front end', () => {
  let app: FastifyInstance | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('answers every page with the index and its security headers, never cached', async () => {
    const served = await serve(await build());
    app = served.app;
    for (const path of ['/', '/things/42']) {
      const page = await fetch(`${served.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toBe("default-src 'self'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await page.text()).toContain('id="root"');
    }
  });

  it('sends the precompressed copy the browser accepts, hashed assets cached for good, others revalidated', async () => {
    const served = await serve(await build());
    app = served.app;
    for (const encoding of ['br', 'gzip']) {
      const asset = await fetch(`${served.url}/app/assets/index-abc.js`, { headers: { 'accept-encoding': encoding } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe(encoding);
      expect(asset.headers.get('content-type')).toContain('javascript');
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('vary')).toBe('accept-encoding');
      expect(await asset.text()).toBe(SCRIPT);
    }
    const plain = await fetch(`${served.url}/app/assets/index-abc.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
    // No compressed copy: the file itself, whatever the browser accepts.
    const css = await fetch(`${served.url}/app/assets/plain-def.css`, { headers: { 'accept-encoding': 'br' } });
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(await css.text()).toBe('body{}');
    const manifest = await fetch(`${served.url}/app/manifest.webmanifest`);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    // A revalidation with the tag it was given answers 304 (node:http: fetch adds `cache-control: no-cache` to a
    // conditional request, which asks for the file again).
    const etag = plain.headers.get('etag') as string;
    const status = await new Promise<number>((resolve, reject) =>
      get(`${served.url}/app/assets/index-abc.js`, { headers: { 'if-none-match': etag } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject),
    );
    expect(status).toBe(304);
  });

  it('serves root files at the root with their headers', async () => {
    const served = await serve(await build());
    app = served.app;
    const worker = await fetch(`${served.url}/app-sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('service-worker-allowed')).toBe('/');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(await worker.text()).toContain('addEventListener');
  });

  it('answers a missing file or a path out of the build with a 404 in the uniform error body', async () => {
    const served = await serve(await build());
    app = served.app;
    for (const path of ['/app/assets/nothing.js', '/app/..%2f..%2fbuilt-pages-secret.txt', '/app/../built-pages-secret.txt']) {
      const response = await fetch(`${served.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('outside the build');
    }
    const missing = await fetch(`${served.url}/app/assets/nothing.js`);
    expect(((await missing.json()) as { error: string }).error).toBe('not_found');
  });

  it('says how to build the front end, with a 503, when the folder holds no build', async () => {
    const served = await serve(await mkdtemp(join(tmpdir(), 'built-pages-empty-')));
    app = served.app;
    const page = await fetch(`${served.url}/things/1`);
    expect(page.status).toBe(503);
    const text = await page.text();
    expect(text).toContain('The test app is not built');
    expect(text).toContain('npm run build -w @hearth/test-app');
    expect(text).toContain('The API still answers.');
    expect((await fetch(`${served.url}/app/assets/index-abc.js`)).status).toBe(404);
  });
});
