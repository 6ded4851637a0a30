import { builtPagesDirectory, registerBuiltPages } from '@hearth/contract/fastify';
import type { FastifyInstance } from 'fastify';

/** The built support form: `SUPPORT_FORM_DIST` when set, else `packages/support-form/dist`. */
export const supportFormDirectory = (env: NodeJS.ProcessEnv = process.env): string =>
  builtPagesDirectory('support-form', 'SUPPORT_FORM_DIST', env);

/**
 * The form runs only its own scripts; besides this origin it talks to the person's hubs (their local and remote
 * addresses, any host) for the facts a ticket carries and shows their app and device icons; React sets some styles
 * inline; data: and blob: images are attachment previews.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "connect-src 'self' http: https: ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the support form at `/support/`, or a page saying how to build it when it is not built. */
export function registerSupportPage(app: FastifyInstance, directory: string): void {
  app.get('/support', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/support/${query}`, 301);
  });
  registerBuiltPages(app, {
    directory,
    base: '/support/',
    pages: ['/support/'],
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    notBuilt: { title: 'The Hearth support form', workspace: '@hearth/support-form' },
  });
}
