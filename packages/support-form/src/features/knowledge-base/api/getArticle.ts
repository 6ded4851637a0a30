import type { Article } from '../../../types/entities';

/** Fetches every article in parallel; failures are logged only and the successes kept, in order. */
export async function getArticles(fetchOne: (id: string) => Promise<Article>, ids: readonly string[]): Promise<Article[]> {
  const results = await Promise.allSettled(ids.map((id) => fetchOne(id)));
  return results.flatMap((r, i) => {
    if (r.status === 'fulfilled') return [r.value];
    console.warn(`Could not load knowledge-base article ${ids[i]}`, r.reason);
    return [];
  });
}
