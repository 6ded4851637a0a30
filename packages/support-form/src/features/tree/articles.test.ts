import { describe, expect, it } from 'vitest';
import { articleById } from '../../../../cloud/src/services/helpdesk/articles';
import { accountGroups, appArticles, hubGroups, mainOptions, radioArticles } from '.';

describe('knowledge-base articles of the tree', () => {
  it('every article id the tree refers to is served by the helpdesk', () => {
    const ids = new Set<string>([
      ...accountGroups.flatMap((g) => g.options.flatMap((o) => o.articles)),
      ...Object.values(hubGroups).flatMap((groups) => groups.flatMap((g) => g.options.flatMap((o) => o.articles))),
      ...Object.values(appArticles).flat(),
      ...Object.values(radioArticles),
      ...mainOptions.hubNotListed('x').articles,
      ...mainOptions.order('1', 'x').articles,
      ...mainOptions.orderNotListed('x').articles,
      ...['homey_plus_1', 'homey_premium_1', 'other'].flatMap((id) => mainOptions.subscription(id, 'x').articles),
      'cant-sign-in',
    ]);
    expect(ids.size).toBeGreaterThan(30);
    for (const id of ids) expect(articleById.get(id)?.name, id).toBeTruthy();
  });
});
