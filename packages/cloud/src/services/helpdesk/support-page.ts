import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { builtPagesDirectory } from '../../platform/built-pages';

/** The built support form: `SUPPORT_FORM_DIST` when set, else `packages/support-form/dist`. */
export const supportFormDirectory = (env: NodeJS.ProcessEnv = process.env): string =>
  builtPagesDirectory('support-form', 'SUPPORT_FORM_DIST', env);

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hearth Support</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:3rem auto;padding:0 1rem">
<h1>The support form is not built</h1>
<p>Build it with <code>npm run build -w @hearth/support-form</code> (or <code>npm run build</code>) and reload this page.</p>
</body></html>`;

/** Serves the support form at `/support/`, or a page saying how to build it when it is not built. */
export async function registerSupportPage(app: FastifyInstance, directory: string): Promise<void> {
  app.get('/support', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/support/${query}`, 301);
  });
  if (!existsSync(join(directory, 'index.html'))) {
    const notBuilt = async (_request: unknown, reply: import('fastify').FastifyReply) =>
      reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT);
    app.get('/support/', { schema: { hide: true } }, notBuilt);
    app.get('/support/*', { schema: { hide: true } }, notBuilt);
    return;
  }
  await app.register(async (scope) => {
    // Hashed assets never change; the page itself is always revalidated.
    scope.addHook('onSend', async (request, reply) => {
      reply.header(
        'cache-control',
        request.url.startsWith('/support/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    });
    await scope.register(fastifyStatic, {
      root: directory,
      prefix: '/support/',
      decorateReply: false,
      index: ['index.html'],
      wildcard: true,
      schemaHide: true,
      // The build writes .br and .gz copies of its larger files; the one the browser accepts is sent as it is.
      preCompressed: true,
    });
  });
}
