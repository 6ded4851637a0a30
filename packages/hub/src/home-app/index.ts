import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import send from '@fastify/send';
import { notFound } from '@hearth/contract';
import { HOME_PAGES } from '@hearth/contract/provider';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Where the household web app was built: `HOME_APP_DIST` when set, else `packages/home/dist` found by walking up
 * from this file (works from the sources and from the bundled `dist/main.js`).
 */
export function homeAppDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HOME_APP_DIST) return resolve(env.HOME_APP_DIST);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'packages', 'home'))) return join(dir, 'packages', 'home', 'dist');
    dir = dirname(dir);
  }
  return resolve('packages', 'home', 'dist');
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Hearth</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:3rem auto;padding:0 1rem">
<h1>The Hearth web app is not built</h1>
<p>Build it with <code>npm run build -w @hearth/home</code> (or <code>npm run build</code>) and reload this page.
The hub's API answers at <code>/api/</code>.</p>
</body></html>`;

/**
 * The app runs only its own scripts and talks only to this hub (`'self'` covers the socket's `ws:` to the same
 * host); app images the hub serves are same-origin too. Custom pair views get their frame from the hub itself.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Precompressed copies the build writes beside each text asset, best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** The service worker answers for the whole origin, so it is served at the root, never cached by HTTP. */
const SERVICE_WORKER = '/home-sw.js';

/**
 * Serves the household web app at every address of HOME_PAGES (the app routes between them) and its assets under
 * `/home/`. Without a build, the pages say how to build it (503), and the API is unaffected either way.
 */
export function registerHomeApp(app: FastifyInstance, directory: string): void {
  const index = join(directory, 'index.html');
  const built = existsSync(index);
  const html = built ? readFileSync(index, 'utf8') : NOT_BUILT;
  const page = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(built ? 200 : 503)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(html);
  for (const path of Object.values(HOME_PAGES)) app.get(path, { schema: { hide: true } }, page);
  if (!built) return;

  app.get(SERVICE_WORKER, { schema: { hide: true } }, async (request, reply) => {
    const found = await send(request.raw, SERVICE_WORKER, { root: directory, dotfiles: 'deny' });
    if (found.type !== 'file') {
      found.stream.destroy();
      throw notFound('File', SERVICE_WORKER);
    }
    return reply
      .code(found.statusCode)
      .headers(found.headers)
      .header('cache-control', 'no-cache')
      .header('service-worker-allowed', '/')
      .send(found.stream);
  });

  app.get('/home/*', { schema: { hide: true } }, async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    const path = `/${request.params['*'] ?? ''}`;
    if (path.split('/').includes('..')) throw notFound('File', `/home${path}`);
    // Hashed assets never change; the manifest and icons may, so they are revalidated.
    const hashed = path.startsWith('/assets/');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    for (const encoding of [...ENCODINGS, null]) {
      if (encoding && !accepted.includes(encoding.name)) continue;
      const file = `${path}${encoding?.suffix ?? ''}`;
      if (encoding && !existsSync(join(directory, file))) continue;
      const found = await send(request.raw, encodeURI(file), { root: directory, dotfiles: 'deny', index: false });
      if (found.type !== 'file' && found.statusCode !== 304 && found.statusCode !== 412 && found.statusCode !== 416) {
        found.stream.destroy();
        break;
      }
      reply.code(found.statusCode).headers(found.headers);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      reply.header('vary', 'accept-encoding');
      if (encoding) {
        reply.header('content-encoding', encoding.name);
        // The type is the original file's, not the compressed copy's.
        reply.type(send.mime.getType(path) ?? 'application/octet-stream');
      }
      return reply.send(found.stream);
    }
    throw notFound('File', `/home${path}`);
  });
}
