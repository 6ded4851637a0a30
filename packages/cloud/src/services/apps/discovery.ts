import { invalidParameter } from '@hearth/contract';
import { type RawBuilder, sql } from 'kysely';
import { type Caller, requireAccount } from './access';
import type { AppFactsValue, FactsDriver, Translation } from './archive';
import { compatible, type HubFilter, hubVersion, judgedPlatforms, modelFacts, PLATFORMS } from './compatibility';
import { CatalogueRecords, num, type SummaryQuery } from './records';
import { lookupKeys, matchScore, wordsOf } from './search';

/** Most search answers returned. */
const SEARCH_LIMIT = 50;
/** Most words of a query searched for. */
const QUERY_WORDS = 8;

/** Finding live apps: the list, search, browse, highlighted apps, and apps by driver or by what a hub discovered. */
export class Discovery extends CatalogueRecords {
  private live() {
    return (q: SummaryQuery) => q.where('a.live_build_id', 'is not', null);
  }

  async list(query: {
    page?: number | undefined;
    count?: number | undefined;
    category?: string | undefined;
    author?: string | undefined;
  }) {
    const count = query.count ?? 20;
    const page = query.page ?? 1;
    const category = query.category === undefined ? null : JSON.stringify([query.category]);
    const apps = await this.summaries((q) => {
      let filtered = this.live()(q);
      if (query.author !== undefined) filtered = filtered.where('a.author_user_id', '=', query.author);
      if (category !== null) filtered = filtered.where(sql<boolean>`a.facts -> 'category' @> ${category}::jsonb`);
      return filtered
        .orderBy('a.updated_at', 'desc')
        .orderBy('a.id')
        .offset((page - 1) * count)
        .limit(count);
    });
    let total = this.db
      .selectFrom('apps as a')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('a.live_build_id', 'is not', null);
    if (query.author !== undefined) total = total.where('a.author_user_id', '=', query.author);
    if (category !== null) total = total.where(sql<boolean>`a.facts -> 'category' @> ${category}::jsonb`);
    return { total: num((await total.executeTakeFirstOrThrow()).n), apps };
  }

  /** Every live app, newest first. */
  async liveSummaries() {
    return this.summaries((q) => this.live()(q).orderBy('a.updated_at', 'desc').orderBy('a.id'));
  }

  async liveIds() {
    const rows = await this.db.selectFrom('apps').select('id').where('live_build_id', 'is not', null).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  async myApps(caller: Caller) {
    const userId = requireAccount(caller);
    return this.summaries((q) => q.where('a.author_user_id', '=', userId).orderBy('a.id'));
  }

  /**
   * Search: every query word must match a word of the app's names (any language), id, or description (in the asked
   * language, else English) — exactly, as a prefix, or with one typo. Names rank over descriptions, a better match
   * over a worse one, names in the asked language (else English) over other names, then the most installed. Only
   * apps whose live build suits the hub of the filters are answered.
   */
  async search(query: string, filter: HubFilter & { language?: string | undefined }) {
    const words = [...new Set(wordsOf(query))].slice(0, QUERY_WORDS);
    if (words.length === 0) throw invalidParameter('query', 'The query has no words to search for');
    // 1. The dictionary: which words of the catalogue match a query word, and how well (checked here exactly).
    const { anyDistance, wordsOnly } = lookupKeys(words);
    const found = await this.db
      .selectFrom('app_search_words')
      .select('word')
      .distinct()
      .where((eb) =>
        eb.or([
          eb('key', 'in', anyDistance),
          ...(wordsOnly.length > 0 ? [eb.and([eb('key', 'in', wordsOnly), eb('distance', '<', 2)])] : []),
        ]),
      )
      .execute();
    const matches: { index: number; word: string; score: number }[] = [];
    for (const { word } of found)
      words.forEach((queryWord, index) => {
        const score = matchScore(queryWord, word);
        if (score > 0) matches.push({ index, word, score });
      });
    if (words.some((_, index) => !matches.some((m) => m.index === index))) return [];
    // 2. The postings of those words, ranked and filtered by the database; summaries only for the answered page.
    const ranked = await this.rank(matches, words.length, filter);
    if (ranked.length === 0) return [];
    const apps = new Map((await this.summaries((q) => q.where('a.id', 'in', ranked))).map((a) => [a.id, a]));
    return ranked.flatMap((id) => {
      const app = apps.get(id);
      return app ? [app] : [];
    });
  }

  /** The ids of the best live apps for the matched words (see {@link search}), of the hub the filter describes. */
  private async rank(
    matches: { index: number; word: string; score: number }[],
    wordCount: number,
    filter: HubFilter & { language?: string | undefined },
  ): Promise<string[]> {
    const table = (name: string) => sql.table(`${this.context.database.schema}.${name}`);
    const language = filter.language?.slice(0, 2).toLowerCase() ?? 'en';
    const values = sql.join(matches.map((m) => sql`(${m.index}::int, ${m.word}::text, ${m.score}::int)`));
    // Postings exist for live apps only and carry what the filters ask about (see `searchDocumentOf`).
    const conditions = [sql`true`];
    const platforms = [filter.homeyPlatform, filter.homeyModel ? modelFacts(filter.homeyModel).platform : undefined];
    for (const platform of platforms) if (platform) conditions.push(sql`strpos(p.platforms, ${`,${platform},`}) > 0`);
    const version = hubVersion(filter.homeyVersion);
    if (version !== null) conditions.push(sql`(p.compatibility is null or p.compatibility @> ${version}::bigint)`);
    // The platform version against the range of the hub's platform, else of any platform the app runs on.
    const platformVersion = hubVersion(filter.homeyPlatformVersion);
    if (platformVersion !== null) {
      const suits = judgedPlatforms(filter).flatMap((platform) => {
        if (!(PLATFORMS as readonly string[]).includes(platform)) return [];
        const range = sql.ref(`p.${platform}_platform_versions`);
        return [
          sql`(strpos(p.platforms, ${`,${platform},`}) > 0 and (${range} is null or ${range} @> ${platformVersion}::bigint))`,
        ];
      });
      conditions.push(suits.length > 0 ? sql`(${sql.join(suits, sql` or `)})` : sql`false`);
    }
    const model = filter.homeyModel ? modelFacts(filter.homeyModel) : null;
    if (model?.platform === 'local' && model.features)
      conditions.push(sql`p.required_features <@ ${JSON.stringify(model.features)}::jsonb`);
    if (filter.homeyMinimumSdkVersion !== undefined) conditions.push(sql`p.sdk >= ${filter.homeyMinimumSdkVersion}`);
    // Per query word the best posting: names 6–10 (a better match first; a name in the asked language, given once,
    // or in English when the app has none in that language, one more), descriptions 1–3 (in the asked language,
    // given once, or in English when the app has none in it), else nothing.
    const asked = `,${language},`;
    const score = sql`case
      when p.field <> 'description' then 3 + 2 * m.score
        + case when p.language in ('', ${language}) or (p.language = 'en' and strpos(p.name_languages, ${asked}) = 0) then 1 else 0 end
      when p.language in ('', ${language}) or (p.language = 'en' and strpos(p.description_languages, ${asked}) = 0) then m.score
    end`;
    // The postings of each matched word are read through their index (`offset 0` keeps the planner, which has no
    // statistics on PGlite, from scanning them all), and only they: no other table is read. Ties go by id in byte
    // order, whatever the database's collation, so that PostgreSQL and PGlite answer the same list.
    const { rows } = await sql<{ app_id: string }>`
      with m(qi, word, score) as (values ${values}),
      best as (
        select p.app_id, m.qi, max(${score}) as score, max(p.installs) as installs
        from m
        cross join lateral (select * from ${table('app_search_postings')} p where p.word = m.word offset 0) p
        where ${sql.join(conditions, sql` and `)}
        group by p.app_id, m.qi
      )
      select app_id from best
      where score is not null
      group by app_id
      having count(*) = ${wordCount}
      order by sum(score) desc, max(installs) desc, app_id collate "C"
      limit ${SEARCH_LIMIT}`.execute(this.db);
    return rows.map((r) => r.app_id);
  }

  /**
   * Browse: live apps with any of the asked platforms, driver connectivities and categories, and all the asked
   * features. With a query the search's answer is filtered; without one the database filters and pages the live
   * apps' facts (newest first, like the full list), so only the answered page is read.
   */
  async browse(query: {
    query?: string | undefined;
    language?: string | undefined;
    platform?: string[] | undefined;
    connectivity?: string[] | undefined;
    category?: string[] | undefined;
    features?: string[] | undefined;
    limit?: number | undefined;
    offset?: number | undefined;
  }) {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 24;
    if (query.query && wordsOf(query.query).length > 0) {
      const any = (wanted: string[] | undefined, have: string[]) =>
        !wanted || wanted.length === 0 || wanted.some((w) => have.includes(w));
      const all = (wanted: string[] | undefined, have: string[]) => !wanted || wanted.every((w) => have.includes(w));
      const apps = (await this.search(query.query, { language: query.language })).filter(
        (app) =>
          any(query.platform, app.platforms) &&
          any(
            query.connectivity,
            app.drivers.flatMap((d) => d.connectivity),
          ) &&
          any(query.category, app.category) &&
          all(query.features, app.features),
      );
      return { total: apps.length, apps: apps.slice(offset, offset + limit) };
    }
    const conditions = browseConditions(query);
    const where = <Q extends { where: (condition: RawBuilder<boolean>) => Q }>(q: Q) =>
      conditions.reduce((filtered, condition) => filtered.where(condition), q);
    const apps = await this.summaries((q) =>
      where(this.live()(q)).orderBy('a.updated_at', 'desc').orderBy('a.id').offset(offset).limit(limit),
    );
    const total = await where(
      this.db
        .selectFrom('apps as a')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('a.live_build_id', 'is not', null),
    ).executeTakeFirstOrThrow();
    return { total: num(total.n), apps };
  }

  /**
   * Highlighted live apps with any of the platforms and tags (categories or manifest tags). With `language`, each
   * app's name and description are the text in that language (else English, like the search reads descriptions).
   */
  async highlighted(platforms: string[] | undefined, tags?: string[], language?: string) {
    const apps = await this.summaries((q) =>
      this.live()(q).where('a.highlighted', '=', true).orderBy('a.updated_at', 'desc').orderBy('a.id'),
    );
    return apps
      .filter(
        (app) =>
          (!platforms || platforms.length === 0 || platforms.some((p) => app.platforms.includes(p))) &&
          (!tags || tags.length === 0 || tags.some((t) => app.category.includes(t) || app.tags.includes(t))),
      )
      .map((app) =>
        language === undefined
          ? app
          : {
              ...app,
              name: inLanguage(app.name, language),
              ...(app.description !== undefined ? { description: inLanguage(app.description, language) } : {}),
            },
      );
  }

  /** Live drivers for which `match` holds, with their apps. */
  async driverSearch(filter: HubFilter, match: (driver: FactsDriver) => boolean) {
    const rows = await this.db
      .selectFrom('apps as a')
      .select(['a.id', 'a.facts'])
      .where('a.live_build_id', 'is not', null)
      .execute();
    const hits: { appId: string; driver: FactsDriver }[] = [];
    for (const row of rows) {
      const facts = row.facts as AppFactsValue | null;
      if (facts === null || !compatible(facts, filter)) continue;
      for (const driver of (facts.drivers ?? []) as FactsDriver[]) if (match(driver)) hits.push({ appId: row.id, driver });
    }
    if (hits.length === 0) return [];
    const apps = new Map(
      (await this.summaries((q) => q.where('a.id', 'in', [...new Set(hits.map((h) => h.appId))]))).map((a) => [a.id, a]),
    );
    return hits.flatMap(({ appId, driver }) => {
      const app = apps.get(appId);
      if (!app) return [];
      return [{ app, driver: { id: driver.id, name: driver.name, class: driver.class, connectivity: driver.connectivity } }];
    });
  }

  /** Live apps whose manifest discovery strategies match what a hub saw on its network. */
  async discover(hints: Record<'ssdp' | 'ble' | 'mac' | 'mdns-sd', unknown[] | undefined>) {
    const rows = await this.db
      .selectFrom('apps as a')
      .select(['a.id', 'a.facts'])
      .where('a.live_build_id', 'is not', null)
      .execute();
    const text = (values: unknown[] | undefined) =>
      (values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase());
    const seen = {
      ssdp: text(hints.ssdp),
      ble: text(hints.ble),
      mac: text(hints.mac).map((m) => m.replace(/[^0-9a-f]/g, '')),
      mdns: text(hints['mdns-sd']),
    };
    const found: { appId: string; strategies: string[] }[] = [];
    for (const row of rows) {
      const strategies: string[] = [];
      for (const [id, strategy] of Object.entries((row.facts as AppFactsValue | null)?.discovery ?? {})) {
        if (strategyMatches(strategy, seen)) strategies.push(id);
      }
      if (strategies.length > 0) found.push({ appId: row.id, strategies });
    }
    if (found.length === 0) return [];
    const apps = new Map(
      (
        await this.summaries((q) =>
          q.where(
            'a.id',
            'in',
            found.map((f) => f.appId),
          ),
        )
      ).map((a) => [a.id, a]),
    );
    return found.flatMap((f) => {
      const app = apps.get(f.appId);
      return app ? [{ app, strategies: f.strategies }] : [];
    });
  }
}

/**
 * Whether a manifest discovery strategy matches the hints: mDNS-SD by service name (`_hue._tcp` or `hue`),
 * SSDP by search target, MAC by manufacturer prefix (OUI), BLE by service UUID or local name.
 */
function strategyMatches(
  strategy: Record<string, unknown>,
  seen: { ssdp: string[]; ble: string[]; mac: string[]; mdns: string[] },
) {
  const type = String(strategy.type ?? '');
  const config = (strategy[type] ?? {}) as Record<string, unknown>;
  if (type === 'mdns-sd') {
    const name = String(config.name ?? '').toLowerCase();
    const protocol = String(config.protocol ?? 'tcp').toLowerCase();
    if (!name) return false;
    return seen.mdns.some((h) => h === name || h.includes(`_${name}._${protocol}`) || h.includes(`"${name}"`));
  }
  if (type === 'ssdp') {
    const search = String(config.search ?? '').toLowerCase();
    return search !== '' && seen.ssdp.some((h) => h.includes(search));
  }
  if (type === 'mac') {
    const prefixes = (Array.isArray(config.manufacturer) ? config.manufacturer : []) as unknown[];
    const hex = prefixes.map((p) => (Array.isArray(p) ? p : []).map((b) => Number(b).toString(16).padStart(2, '0')).join(''));
    return hex.some((prefix) => prefix.length === 6 && seen.mac.some((mac) => mac.startsWith(prefix)));
  }
  if (type === 'ble') {
    const wanted = [config.uuid, config.name, ...(Array.isArray(config.uuids) ? config.uuids : [])]
      .filter((v): v is string => typeof v === 'string' && v !== '')
      .map((v) => v.toLowerCase());
    return wanted.some((w) => seen.ble.some((h) => h.includes(w)));
  }
  return false;
}

/**
 * The browse filters as conditions on an app's facts (`a.facts`), each a containment the `apps_facts` index answers:
 * any of the platforms (`local` when none are listed), any connectivity of any driver, any category, every feature.
 * Empty lists do not filter.
 */
function browseConditions(query: {
  platform?: string[] | undefined;
  connectivity?: string[] | undefined;
  category?: string[] | undefined;
  features?: string[] | undefined;
}): RawBuilder<boolean>[] {
  const holds = (facts: unknown) => sql<boolean>`a.facts @> ${JSON.stringify(facts)}::jsonb`;
  const anyOf = (values: string[] | undefined, facts: (value: string) => unknown, extra: RawBuilder<boolean>[] = []) =>
    values?.length ? [sql<boolean>`(${sql.join([...values.map((v) => holds(facts(v))), ...extra], sql` or `)})`] : [];
  return [
    ...anyOf(
      query.platform,
      (platform) => ({ platforms: [platform] }),
      query.platform?.includes('local') ? [sql<boolean>`a.facts -> 'platforms' is null`] : [],
    ),
    ...anyOf(query.connectivity, (connectivity) => ({ drivers: [{ connectivity: [connectivity] }] })),
    ...anyOf(query.category, (category) => ({ category: [category] })),
    ...(query.features?.length ? [holds({ features: query.features })] : []),
  ];
}

/**
 * A text in one language: the asked one (`nl-BE`, then `nl`), else English, else the first given; text given once
 * is itself.
 */
export function inLanguage(text: Translation, language: string): string {
  if (typeof text === 'string') return text;
  const short = language.slice(0, 2).toLowerCase();
  return text[language] ?? text[short] ?? text.en ?? Object.values(text)[0] ?? '';
}
