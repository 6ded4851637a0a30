import { builtPagesDirectory, registerBuiltPages } from '@hearth/contract/fastify';
import { HOME_PAGES } from '@hearth/contract/provider';
import type { FastifyInstance } from 'fastify';

/** Where the household web app was built: `HOME_APP_DIST` when set, else `packages/home/dist`. */
export const homeAppDirectory = (env: NodeJS.ProcessEnv = process.env): string =>
  builtPagesDirectory('home', 'HOME_APP_DIST', env);

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

/**
 * Serves the household web app at every address of HOME_PAGES (the app routes between them), its files under
 * `/home/` and its service worker (which answers for the whole origin) at the root. Without a build, the pages say
 * how to build it (503), and the API is unaffected either way.
 */
export function registerHomeApp(app: FastifyInstance, directory: string): void {
  registerBuiltPages(app, {
    directory,
    base: '/home/',
    pages: Object.values(HOME_PAGES),
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    rootFiles: { '/home-sw.js': { 'service-worker-allowed': '/' } },
    notBuilt: { title: 'The Hearth web app', workspace: '@hearth/home', note: "The hub's API answers at <code>/api/</code>." },
  });
}
