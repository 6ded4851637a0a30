import type { CloudContext } from '../../platform/context';
import { type Caller, requireProvider } from './access';
import type { AppFactsValue } from './archive';
import type { Discovery } from './discovery';
import { CatalogueRecords, num } from './records';
import { dictionaryOf, postingsOf, searchDocumentOf } from './search';

/** The search index of live apps (postings and dictionary), its rebuild, and the catalogue's counts. */
export class CatalogueIndex extends CatalogueRecords {
  constructor(
    context: CloudContext,
    private readonly discovery: Discovery,
  ) {
    super(context);
  }

  /**
   * Rewrites the search postings of apps from their live facts (apps without a live build have none) and adds their
   * new words to the dictionary. Answers the number of postings written.
   */
  async indexApps(appIds: string[]) {
    let written = 0;
    for (let i = 0; i < appIds.length; i += 500) {
      const chunk = appIds.slice(i, i + 500);
      const rows = await this.db
        .selectFrom('apps')
        .select(['id', 'facts', 'installs'])
        .where('id', 'in', chunk)
        .where('live_build_id', 'is not', null)
        .execute();
      await this.db.deleteFrom('app_search_postings').where('app_id', 'in', chunk).execute();
      const postings = rows.flatMap((row) => {
        const facts = row.facts as AppFactsValue | null;
        if (!facts) return [];
        const document = searchDocumentOf(facts, row.installs);
        return postingsOf(row.id, facts).map((posting) => ({ ...posting, ...document }));
      });
      for (let j = 0; j < postings.length; j += 1_000)
        await this.db
          .insertInto('app_search_postings')
          .values(postings.slice(j, j + 1_000))
          .execute();
      written += postings.length;
      const words = [...new Set(postings.map((p) => p.word))];
      if (words.length === 0) continue;
      const known = new Set(
        (
          await this.db
            .selectFrom('app_search_words')
            .select('word')
            .where('key', 'in', words)
            .where('distance', '=', 0)
            .execute()
        ).map((r) => r.word),
      );
      const entries = dictionaryOf(words.filter((w) => !known.has(w)));
      for (let j = 0; j < entries.length; j += 3_000)
        await this.db
          .insertInto('app_search_words')
          .values(entries.slice(j, j + 3_000))
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
    return written;
  }

  async sync(caller: Caller) {
    requireProvider(caller);
    const ids = await this.discovery.liveIds();
    await this.db.deleteFrom('app_search_postings').execute();
    await this.db.deleteFrom('app_search_words').execute();
    return { apps: ids.length, keys: await this.indexApps(ids) };
  }

  async summary() {
    const count = async (table: 'apps' | 'app_builds' | 'app_reviews' | 'app_crashes' | 'app_installs') =>
      num(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const live = await this.db
      .selectFrom('apps')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('live_build_id', 'is not', null)
      .executeTakeFirstOrThrow();
    const pending = await this.db
      .selectFrom('app_submissions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    return {
      apps: await count('apps'),
      liveApps: num(live.n),
      builds: await count('app_builds'),
      pendingSubmissions: num(pending.n),
      reviews: await count('app_reviews'),
      crashes: await count('app_crashes'),
      installs: await count('app_installs'),
    };
  }
}
