import { HearthError } from '@hearth/contract';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../platform/html';
import { ANONYMOUS } from './access';
import type { AppCatalogue } from './service';

type Localized = string | Record<string, string> | null | undefined;
const english = (value: Localized): string =>
  !value ? '' : typeof value === 'string' ? value : (value.en ?? Object.values(value)[0] ?? '');

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Hearth apps</title>
<style>
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;max-width:720px;margin:0 auto;padding:1.5rem 1.25rem 3rem;line-height:1.6;color:#1f2937;overflow-wrap:break-word}
a{color:#9a3412}nav{margin-bottom:1.5rem;font-size:.95rem}nav a{display:inline-block;padding:.6rem 0}
header{display:flex;gap:1rem;align-items:center}header img{width:72px;height:72px;border-radius:16px;flex:none}
h1{margin:0;line-height:1.2}.author{color:#4b5563;margin:.25rem 0 0}.badge{display:inline-block;margin-left:.35rem;padding:0 .5rem;border-radius:999px;background:#dcfce7;color:#166534;font-size:.8rem}
.card{margin-top:1.5rem;padding:1rem 1.25rem;border:1px solid #e7e5e4;border-radius:12px;background:#fafaf9}
</style>
</head>
<body>
<nav><a href="/support/">Hearth Support</a></nav>
<main>${body}</main>
</body>
</html>`;

/**
 * The page people open for one app of the catalogue (`appPagePath` of @hearth/contract/provider: the support form
 * links an out-of-date app here): what the app is, who makes it, its latest version with its changes, and how a
 * hub gets that version. Apps that are not public answer 404, as their API record does.
 */
export function registerAppPage(app: FastifyInstance, catalogue: AppCatalogue): void {
  app.get<{ Params: { appId: string } }>('/app/:appId', { schema: { hide: true } }, async (request, reply) => {
    let record: Awaited<ReturnType<AppCatalogue['apps']['getApp']>>;
    try {
      record = await catalogue.apps.getApp(request.params.appId, ANONYMOUS);
    } catch (error) {
      if (!(error instanceof HearthError) || error.statusCode !== 404) throw error;
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .send(page('App not found', '<h1>App not found</h1><p>No public app of the catalogue has this id.</p>'));
    }
    const name = english(record.name as Localized) || record.id;
    const live = record.liveBuild;
    const changes = english(live?.changelog as Localized);
    const description = english((live?.facts as { description?: Localized } | null)?.description ?? live?.readme);
    const author = `${escapeHtml(record.author.name)}${record.author.verified ? '<span class="badge">Verified developer</span>' : ''}`;
    const body = [
      `<header><img src="${escapeHtml(record.icon)}" alt=""><div><h1>${escapeHtml(name)}</h1><p class="author">by ${author}</p></div></header>`,
      description ? `<p>${escapeHtml(description)}</p>` : '',
      record.liveVersion
        ? `<section class="card"><h2>Latest version: ${escapeHtml(record.liveVersion)}</h2>${changes ? `<p>${escapeHtml(changes)}</p>` : ''}</section>`
        : '<section class="card"><h2>No version published yet</h2></section>',
      '<section class="card"><h2>Updating</h2><p>A hub installs the latest version by itself while automatic updates are ' +
        'on for the app. To update now, open the app in the Hearth app on your phone (<strong>Apps</strong>, then the app) ' +
        'and choose <strong>Update</strong>; a hub updated this way keeps the app’s settings and devices.</p></section>',
    ].join('');
    return reply.type('text/html; charset=utf-8').send(page(name, body));
  });
}
