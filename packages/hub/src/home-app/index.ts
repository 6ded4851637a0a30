import { builtPagesDirectory, registerBuiltPages } from '@hearth/contract/fastify';
import { HOME_PAGES } from '@hearth/contract/provider';
import type { FastifyInstance } from 'fastify';

/** Where the household web app was built: `HOME_APP_DIST` when set, else `packages/home/dist`. */
export const homeAppDirectory = (env: NodeJS.ProcessEnv = process.env): string =>
  builtPagesDirectory('home', 'HOME_APP_DIST', env);

/**
 * The app runs only its own scripts and talks only to this hub (`'self'` covers the socket's `ws:` to the same
 * host) and, to sign in through it and read its app catalogue, the hub's cloud; installed apps' images the hub
 * serves are same-origin, the catalogue's icons come from the cloud. Custom pair views get their frame from the
 * hub itself.
 */
const contentSecurityPolicy = (cloudUrl: string | null) => {
  const cloud = cloudUrl ? ` ${new URL(cloudUrl).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${cloud}`,
    `connect-src 'self'${cloud}`,
    "frame-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
};

/** Where the app reads the cloud to sign in through (`null`: none, only local sign-in); outside `/home/`, which the offline shell keeps for good. */
export const HOME_CLOUD_PATH = '/home-cloud.json';

/**
 * Serves the household web app at every address of HOME_PAGES (the app routes between them), its files under
 * `/home/` and its service worker (which answers for the whole origin) at the root. Without a build, the pages say
 * how to build it (503), and the API is unaffected either way.
 */
export function registerHomeApp(app: FastifyInstance, directory: string, cloudUrl: string | null): void {
  app.get(HOME_CLOUD_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ url: cloudUrl ? cloudUrl.replace(/\/$/, '') : null }),
  );
  registerBuiltPages(app, {
    directory,
    base: '/home/',
    pages: Object.values(HOME_PAGES),
    contentSecurityPolicy: contentSecurityPolicy(cloudUrl),
    rootFiles: { '/home-sw.js': { 'service-worker-allowed': '/' } },
    notBuilt: { title: 'The Hearth web app', workspace: '@hearth/home', note: "The hub's API answers at <code>/api/</code>." },
  });
}
