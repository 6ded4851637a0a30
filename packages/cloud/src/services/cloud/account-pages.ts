import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { builtPagesDirectory } from '../../platform/built-pages';

/** The built account pages: `ACCOUNT_PAGES_DIST` when set, else `packages/account/dist`. */
export const accountPagesDirectory = (env: NodeJS.ProcessEnv = process.env): string =>
  builtPagesDirectory('account', 'ACCOUNT_PAGES_DIST', env);

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hearth account</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:3rem auto;padding:0 1rem">
<h1>The account pages are not built</h1>
<p>Build them with <code>npm run build -w @hearth/account</code> (or <code>npm run build</code>) and reload this page.</p>
</body></html>`;

/**
 * The pages run only their own scripts and styles and talk only to this origin; data: and blob: images are the QR
 * code and the picture being cropped.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the account pages at every address of ACCOUNT_PAGES (the app routes between them) and their assets. */
export async function registerAccountPages(app: FastifyInstance, directory: string): Promise<void> {
  const index = join(directory, 'index.html');
  const built = existsSync(index);
  const html = built ? readFileSync(index, 'utf8') : NOT_BUILT;
  const page = async (_request: unknown, reply: FastifyReply) =>
    reply
      .status(built ? 200 : 503)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(html);
  for (const path of Object.values(ACCOUNT_PAGES)) app.get(path, { schema: { hide: true } }, page);
  if (!built) return;
  await app.register(async (scope) => {
    // Hashed assets never change.
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    });
    await scope.register(fastifyStatic, {
      root: join(directory, 'assets'),
      prefix: '/account/assets/',
      decorateReply: false,
      index: false,
      schemaHide: true,
    });
  });
}
