import { builtPagesDirectory, registerBuiltPages } from '@hearth/contract/fastify';
import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import type { FastifyInstance } from 'fastify';

/** The built account pages: `ACCOUNT_PAGES_DIST` when set, else `packages/account/dist`. */
export const accountPagesDirectory = (env: NodeJS.ProcessEnv = process.env): string =>
  builtPagesDirectory('account', 'ACCOUNT_PAGES_DIST', env);

/**
 * The pages run only their own scripts and styles and talk to this origin; data: and blob: images are the QR
 * code and the picture being cropped. They may also knock at any http(s) origin: "Open the hub" asks whether a hub's
 * local address answers before sending the person there (else through the relay), and hubs register addresses no
 * fixed list can name.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self' http: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the account pages at every address of ACCOUNT_PAGES (the app routes between them), their files under `/account/`. */
export function registerAccountPages(app: FastifyInstance, directory: string): void {
  registerBuiltPages(app, {
    directory,
    base: '/account/',
    pages: Object.values(ACCOUNT_PAGES),
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    notBuilt: { title: 'Hearth account', workspace: '@hearth/account' },
  });
}
