import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import send from '@fastify/send';
import { notFound } from '@hearth/contract';
import { drawnAppIcon } from '@hearth/contract/app-icon';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { translate } from '../../runtime/manifest';
import type { HubServices } from '../../runtime/services';

/**
 * The parts of an app's folder clients show, as paths under it: its icon and images, its drivers' icons and
 * images, its custom pair and repair views with what they load, its settings page and its widgets' public files.
 * Never its code, its `env.json` (the developer's secrets) or its userdata.
 */
const SHOWN = [/^assets\/./, /^drivers\/[^/]+\/(assets|pair|repair)\/./, /^settings\/./, /^widgets\/[^/]+\/public\/./];
/** An app's own pair or repair view: served with the pairing client API it expects added first. */
const PAIR_VIEW = /^drivers\/[^/]+\/(pair|repair)\/[^/]+\.html$/;
/** The household web app's pairing client (packages/home/public/pair-client.js), which it answers from its frame. */
const PAIR_CLIENT = '<script src="/home/pair-client.js"></script>';
/** Icons every app and driver has: drawn in the app's brand colour when its package has none. */
const ICON = /^(drivers\/[^/]+\/)?assets\/icon\.svg$/;

/** The view with the pairing client before anything of its own: after `<head>` when it has one, else first. */
function withPairClient(html: string): string {
  const head = /<head[^>]*>/i.exec(html);
  if (!head) return PAIR_CLIENT + html;
  const at = head.index + head[0].length;
  return html.slice(0, at) + PAIR_CLIENT + html.slice(at);
}

/**
 * Serves apps' files at `/app/<appId>/<path>` (the `icon`, `images` and driver icon URLs the hub's app and driver
 * views give, and a custom pair view at `/app/<appId>/drivers/<driverId>/pair/<viewId>.html`, with the pairing
 * client added), without a session: they are the public parts of the app the store ships to everyone. Conditional
 * and ranged requests are answered by `@fastify/send`, which also keeps a path inside the app's folder.
 */
export function registerAppAssets(app: FastifyInstance, services: HubServices): void {
  app.get('/app/:appId/*', async (request: FastifyRequest<{ Params: { appId: string; '*': string } }>, reply) => {
    const { appId } = request.params;
    const path = request.params['*'] ?? '';
    const installed = services.apps.find(appId);
    if (!installed || !SHOWN.some((shown) => shown.test(path)) || path.split('/').includes('..'))
      throw notFound('App file', `/app/${appId}/${path}`);
    if (installed.dir && PAIR_VIEW.test(path)) {
      // A pair view the app does not ship (or that cannot be read) goes the way of any other file below: sent or 404.
      const html = await readFile(join(installed.dir, path), 'utf8').catch(() => null);
      if (html !== null)
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(withPairClient(html));
    }
    if (installed.dir) {
      const found = await send(request.raw, `/${encodeURI(path)}`, { root: installed.dir, dotfiles: 'deny', maxAge: 60_000 });
      if (found.type === 'file' || found.statusCode === 304 || found.statusCode === 412 || found.statusCode === 416)
        return reply.code(found.statusCode).headers(found.headers).send(found.stream);
      found.stream.destroy();
    }
    if (ICON.test(path)) {
      const { manifest } = installed;
      const driverId = path.startsWith('drivers/') ? path.split('/')[1] : undefined;
      const driver = driverId ? manifest.drivers?.find((d) => d.id === driverId) : undefined;
      const name = translate(driver?.name ?? manifest.name, 'en');
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=60')
        .send(drawnAppIcon(name, manifest.brandColor ?? '#888888'));
    }
    throw notFound('App file', `/app/${appId}/${path}`);
  });
}
