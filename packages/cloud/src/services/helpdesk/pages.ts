import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../platform/html';
import { articleById, articles } from './articles';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Hearth Help Center</title>
<style>
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;max-width:720px;margin:0 auto;padding:2rem 1.25rem;line-height:1.6;color:#1f2937}
a{color:#9a3412}li{margin:.25rem 0}nav{margin-bottom:1.5rem;font-size:.9rem}
</style>
</head>
<body>
<nav><a href="/api/helpdesk/articles">Hearth Help Center</a> · <a href="/support/">Contact support</a></nav>
<main>${body}</main>
</body>
</html>`;

/** The path of an article's page; `html_url` is this under the cloud's public address. */
export const articlePath = (id: string) => `/api/helpdesk/articles/${encodeURIComponent(id)}`;

/** The knowledge base people read: an index of every article and one page per article. */
export function registerArticlePages(app: FastifyInstance): void {
  app.get('/api/helpdesk/articles', { schema: { hide: true } }, async (_request, reply) => {
    const items = articles.map((a) => `<li><a href="${articlePath(a.id)}">${escapeHtml(a.name)}</a></li>`).join('');
    return reply.type('text/html; charset=utf-8').send(page('Knowledge base', `<h1>Hearth Help Center</h1><ul>${items}</ul>`));
  });
  app.get<{ Params: { id: string } }>('/api/helpdesk/articles/:id', { schema: { hide: true } }, async (request, reply) => {
    const article = articleById.get(request.params.id);
    if (!article) {
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .send(page('Not found', '<h1>Article not found</h1><p><a href="/api/helpdesk/articles">See all articles</a></p>'));
    }
    return reply
      .type('text/html; charset=utf-8')
      .send(page(article.name, `<article><h1>${escapeHtml(article.name)}</h1>${article.body}</article>`));
  });
}
