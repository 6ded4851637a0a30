import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';

/**
 * Where a front end was built: the directory `envVar` names when set, else `packages/<workspace>/dist` found by
 * walking up from this file (works from the sources and from a server's bundled `dist/main.js`).
 */
export function builtPagesDirectory(workspace: string, envVar: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[envVar];
  if (configured) return resolve(configured);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'packages', workspace))) return join(dir, 'packages', workspace, 'dist');
    dir = dirname(dir);
  }
  return resolve('packages', workspace, 'dist');
}

/** A single-page front end built by Vite (the account pages, the support form, the household web app). */
export interface BuiltPages {
  /** The build's folder: its `index.html`, hashed `assets/` and any other files. */
  readonly directory: string;
  /** Where the build's files are served (Vite's `base`), e.g. `/home/`: `/home/assets/x.js` is `<directory>/assets/x.js`. */
  readonly base: `/${string}/`;
  /** The addresses that answer the app's `index.html` (the app routes between them). */
  readonly pages: readonly string[];
  /** The pages' Content-Security-Policy. */
  readonly contentSecurityPolicy: string;
  /** Files served at the origin's root instead of under `base` (a service worker that answers for the whole origin). */
  readonly rootFiles?: Readonly<Record<`/${string}`, Readonly<Record<string, string>>>>;
  /** What the pages say, with a 503, when the folder holds no build. */
  readonly notBuilt: { readonly title: string; readonly workspace: string; readonly note?: string };
}

/** Precompressed copies the build writes beside each larger text file (packages/client/scripts/precompress.mjs), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** `send` reports these without a file, and they are answers all the same. */
const ANSWERED_WITHOUT_FILE = new Set([304, 412, 416]);

const notBuiltPage = ({ title, workspace, note }: BuiltPages['notBuilt']) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:3rem auto;padding:0 1rem">
<h1>${title} is not built</h1>
<p>Build it with <code>npm run build -w ${workspace}</code> (or <code>npm run build</code>) and reload this page.${note ? ` ${note}` : ''}</p>
</body></html>`;

/**
 * Serves a built single-page front end: its pages (no-cache, with the security headers), its files under `base`
 * (hashed assets cached for good, the rest revalidated; the precompressed copy the browser accepts sent as it is,
 * so a small hub never compresses per request) and its root files. Without a build every page says how to make
 * one, with a 503, and nothing else is affected. Written once for the cloud's and the hub's front ends.
 */
export function registerBuiltPages(app: FastifyInstance, pages: BuiltPages): void {
  const { directory, base } = pages;
  const built = existsSync(join(directory, 'index.html'));
  const html = built ? readFileSync(join(directory, 'index.html'), 'utf8') : notBuiltPage(pages.notBuilt);
  const page = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(built ? 200 : 503)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', pages.contentSecurityPolicy)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(html);
  for (const path of pages.pages) app.get(path, { schema: { hide: true } }, page);
  if (!built) return;

  for (const [path, headers] of Object.entries(pages.rootFiles ?? {})) {
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      const found = await send(request.raw, path, { root: directory, dotfiles: 'deny' });
      if (found.type !== 'file' && !ANSWERED_WITHOUT_FILE.has(found.statusCode)) {
        found.stream.destroy();
        throw notFound('File', path);
      }
      return reply
        .code(found.statusCode)
        .headers(found.headers)
        .header('cache-control', 'no-cache')
        .headers(headers)
        .send(found.stream);
    });
  }

  app.get(`${base}*`, { schema: { hide: true } }, async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    const path = `/${request.params['*'] ?? ''}`;
    if (path.split('/').includes('..')) throw notFound('File', `${base}${path.slice(1)}`);
    const hashed = path.startsWith('/assets/');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    for (const encoding of [...ENCODINGS, null]) {
      if (encoding && !accepted.includes(encoding.name)) continue;
      const file = `${path}${encoding?.suffix ?? ''}`;
      if (encoding && !existsSync(join(directory, file))) continue;
      const found = await send(request.raw, encodeURI(file), { root: directory, dotfiles: 'deny', index: false });
      if (found.type !== 'file' && !ANSWERED_WITHOUT_FILE.has(found.statusCode)) {
        found.stream.destroy();
        break;
      }
      reply.code(found.statusCode).headers(found.headers);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      reply.header('vary', 'accept-encoding');
      reply.header('x-content-type-options', 'nosniff');
      if (encoding) {
        reply.header('content-encoding', encoding.name);
        // The type is the original file's, not the compressed copy's.
        reply.type(send.mime.getType(path) ?? 'application/octet-stream');
      }
      return reply.send(found.stream);
    }
    throw notFound('File', `${base}${path.slice(1)}`);
  });
}
