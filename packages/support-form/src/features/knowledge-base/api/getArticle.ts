import { request } from '../../../lib/http';
import type { Article } from '../../../types/entities';

/** One knowledge-base article's name and address (`GET /api/helpdesk/article?id=`). */
export async function getArticle(cloudUrl: string, token: string | null, id: string): Promise<Article> {
  const { name, html_url } = await request<{ name: string; html_url: string }>(
    `${cloudUrl}/api/helpdesk/article?id=${encodeURIComponent(id)}`,
    { token },
  );
  return { id, name, html_url };
}

/** Fetches every article in parallel; failures are logged only and the successes kept, in order. */
export async function getArticles(fetchOne: (id: string) => Promise<Article>, ids: readonly string[]): Promise<Article[]> {
  const results = await Promise.allSettled(ids.map((id) => fetchOne(id)));
  return results.flatMap((r, i) => {
    if (r.status === 'fulfilled') return [r.value];
    console.warn(`Could not load knowledge-base article ${ids[i]}`, r.reason);
    return [];
  });
}
