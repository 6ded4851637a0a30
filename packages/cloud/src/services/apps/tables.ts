import { type ColumnType, type Generated, type Kysely, type Migration, sql } from 'kysely';
import { versionIntervals } from './compatibility';
import { dictionaryOf, postingsOf, type SearchField, searchDocumentOf, searchRows } from './search';

/** A jsonb column: read as `T`, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export type Channel = 'stable' | 'beta' | 'alpha';
export type ArchiveStateValue = 'pending' | 'processing' | 'ready' | 'failed';
export type SubmissionStateValue = 'pending' | 'approved' | 'rejected' | 'retracted';

export interface AppSettingsValue {
  sendEmailCrash: boolean;
  sendEmailSuggestion: boolean;
  sendEmailThanks: boolean;
}

export interface AppsTable {
  id: string;
  author_user_id: string;
  /** Shown first on highlight lists (set by the provider). */
  highlighted: boolean;
  settings: Json<AppSettingsValue>;
  /** Kept equal to the newest `stable` build (live) and the newest `beta` build (test). */
  live_build_id: number | null;
  test_build_id: number | null;
  live_version: ColumnType<string | null, string | null | undefined, string | null>;
  test_version: ColumnType<string | null, string | null | undefined, string | null>;
  /** The facts the catalogue shows: the live build's, else the test build's, else the newest processed build's. */
  facts: ColumnType<Record<string, unknown> | null, string | undefined, string>;
  rating_sum: ColumnType<number, number | undefined, number>;
  rating_count: ColumnType<number, number | undefined, number>;
  /** Hubs that installed the app (kept equal to its rows in `app_installs`). */
  installs: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AppBuildsTable {
  id: Generated<number>;
  app_id: string;
  version: string;
  channel: Channel | null;
  env: Json<Record<string, string>>;
  changelog: Json<Record<string, string>>;
  readme: Json<Record<string, string>>;
  /** The manifest facts extracted from the archive's app.json; `null` until the archive is ready. */
  facts: Json<Record<string, unknown> | null>;
  /** The whole validated app.json, for hubs that install the build. */
  manifest: Json<Record<string, unknown> | null>;
  archive_id: string;
  created_at: CreatedAt;
  published_at: Timestamp | null;
}

export interface AppArchivesTable {
  id: string;
  build_id: number;
  state: ArchiveStateValue;
  error: string | null;
  hash: string | null;
  size: number | null;
  assets_id: string | null;
  manifest: Json<Record<string, unknown> | null>;
  /** File name of the stored archive under the archives directory (`<id>.tar.gz` or `<id>.zip`). */
  file: string | null;
  /** Whether the archive has `assets/icon.svg` (stored as `<id>.icon.svg`). */
  has_icon: boolean;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AppSubmissionsTable {
  id: Generated<number>;
  build_id: number;
  state: SubmissionStateValue;
  auto_release: boolean;
  reviewer_user_id: string | null;
  created_at: CreatedAt;
  decided_at: Timestamp | null;
}

export interface AppSubmissionCommentsTable {
  id: Generated<number>;
  build_id: number;
  user_id: string;
  reviewer: boolean;
  text: string;
  created_at: CreatedAt;
}

export interface AppReviewsTable {
  app_id: string;
  user_id: string;
  version: string;
  rating: number;
  comment: string;
  response: string | null;
  response_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AppThanksTable {
  app_id: string;
  user_id: string;
  created_at: CreatedAt;
}

export interface AppCrashesTable {
  id: string;
  app_id: string;
  build_id: number;
  app_version: string;
  homey_id: string;
  homey_version: string;
  homey_model_id: string | null;
  homey_model_name: string | null;
  stack: string;
  stack_hash: string;
  created_at: CreatedAt;
  replied_at: Timestamp | null;
}

export interface AppSuggestionsTable {
  id: Generated<number>;
  app_id: string;
  user_id: string;
  text: string;
  created_at: CreatedAt;
}

export interface AppInstallsTable {
  app_id: string;
  /** SHA-256 of the installing hub's `secret`. */
  hub_key: string;
  build_id: number;
  version: string;
  channel: Channel;
  updated_at: Timestamp;
}

/**
 * The search index: each word of a live app's names (every language) and id, under itself, each of its
 * one-letter deletions and each of its prefixes. A query word matches when one of its own keys (itself and its
 * deletions) equals one of these: an edit distance of at most one, or a prefix, answered with one equality index
 * lookup that behaves the same on PostgreSQL and PGlite (neither pg_trgm nor fuzzystrmatch is needed).
 */
export interface AppSearchKeysTable {
  app_id: string;
  key: string;
  word: string;
  /** 0 when `key` is the word itself, 1 for a deletion, 2 for a prefix. */
  distance: number;
}

/**
 * The search dictionary: every word of the catalogue under itself, each of its one-letter deletions and each of its
 * prefixes. A query word matches when one of its own keys (itself and its deletions) equals one of these: an edit
 * distance of at most one, or a prefix, found with one equality index lookup that behaves the same on PostgreSQL
 * and PGlite (neither pg_trgm nor fuzzystrmatch is needed). Shared by all apps: a word is stored once.
 */
export interface AppSearchWordsTable {
  key: string;
  word: string;
  /** 0 when `key` is the word itself, 1 for a deletion, 2 for a prefix. */
  distance: number;
}

/**
 * The words of each live app (its postings): where each was found, and in which language; with the app's search
 * document (see `searchDocumentOf`), so that a search ranks and filters on the postings alone.
 */
export interface AppSearchPostingsTable {
  word: string;
  app_id: string;
  field: SearchField;
  /** The language of the name or description it is a word of; `''` for text given once and for the id. */
  language: string;
  installs: ColumnType<number, number | undefined, number>;
  name_languages: ColumnType<string, string | undefined, string>;
  description_languages: ColumnType<string, string | undefined, string>;
  platforms: ColumnType<string, string | undefined, string>;
  required_features: ColumnType<string[], string | undefined, string>;
  /** The hub versions the app accepts (`int8multirange` of encoded versions); `null` accepts any. */
  compatibility: ColumnType<string | null, string | null | undefined, string | null>;
  /** The platform versions of a `local` (a `cloud`) hub the app accepts, as `compatibility`; `null` accepts any. */
  local_platform_versions: ColumnType<string | null, string | null | undefined, string | null>;
  cloud_platform_versions: ColumnType<string | null, string | null | undefined, string | null>;
  sdk: ColumnType<number, number | undefined, number>;
}

export interface AppsTables {
  apps: AppsTable;
  app_builds: AppBuildsTable;
  app_archives: AppArchivesTable;
  app_submissions: AppSubmissionsTable;
  app_submission_comments: AppSubmissionCommentsTable;
  app_reviews: AppReviewsTable;
  app_thanks: AppThanksTable;
  app_crashes: AppCrashesTable;
  app_suggestions: AppSuggestionsTable;
  app_installs: AppInstallsTable;
  app_search_words: AppSearchWordsTable;
  app_search_postings: AppSearchPostingsTable;
}

/** The tables as the migrations before the dictionary saw them. */
type AppsTablesWithKeys = AppsTables & { app_search_keys: AppSearchKeysTable };
/** The tables as the dictionary migration saw them: the app kept its version intervals. */
type AppsTablesWithRanges = Omit<AppsTables, 'apps'> & {
  apps: AppsTable & { compatibility_ranges: ColumnType<unknown, string | undefined, string> };
};

const now = sql`now()`;
const emptyObject = sql`'{}'::jsonb`;

/** The app catalogue: apps, builds, archives, submissions, reviews, thanks, crashes, suggestions, installs, search. */
export const appsCatalogueMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('apps')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('author_user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('highlighted', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('settings', 'jsonb', (c) => c.notNull())
      .addColumn('live_build_id', 'integer')
      .addColumn('test_build_id', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('apps_author').on('apps').column('author_user_id').execute();
    await db.schema.createIndex('apps_live').on('apps').column('live_build_id').execute();

    await db.schema
      .createTable('app_builds')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('channel', 'text')
      .addColumn('env', 'jsonb', (c) => c.notNull().defaultTo(emptyObject))
      .addColumn('changelog', 'jsonb', (c) => c.notNull().defaultTo(emptyObject))
      .addColumn('readme', 'jsonb', (c) => c.notNull().defaultTo(emptyObject))
      .addColumn('facts', 'jsonb')
      .addColumn('manifest', 'jsonb')
      .addColumn('archive_id', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('published_at', 'timestamptz')
      .addUniqueConstraint('app_builds_app_version', ['app_id', 'version'])
      .execute();

    await db.schema
      .createTable('app_archives')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('build_id', 'integer', (c) => c.notNull().references('app_builds.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('hash', 'text')
      .addColumn('size', 'integer')
      .addColumn('assets_id', 'text')
      .addColumn('manifest', 'jsonb')
      .addColumn('file', 'text')
      .addColumn('has_icon', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('app_submissions')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('build_id', 'integer', (c) => c.notNull().unique().references('app_builds.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('auto_release', 'boolean', (c) => c.notNull())
      .addColumn('reviewer_user_id', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('decided_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('app_submissions_state').on('app_submissions').column('state').execute();

    await db.schema
      .createTable('app_submission_comments')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('build_id', 'integer', (c) => c.notNull().references('app_builds.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('reviewer', 'boolean', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('app_reviews')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('response', 'text')
      .addColumn('response_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('app_reviews_pk', ['app_id', 'user_id'])
      .addCheckConstraint('app_reviews_rating', sql`rating between 1 and 5`)
      .execute();

    await db.schema
      .createTable('app_thanks')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('app_thanks_pk', ['app_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('app_crashes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('build_id', 'integer', (c) => c.notNull().references('app_builds.id').onDelete('cascade'))
      .addColumn('app_version', 'text', (c) => c.notNull())
      .addColumn('homey_id', 'text', (c) => c.notNull())
      .addColumn('homey_version', 'text', (c) => c.notNull())
      .addColumn('homey_model_id', 'text')
      .addColumn('homey_model_name', 'text')
      .addColumn('stack', 'text', (c) => c.notNull())
      .addColumn('stack_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('replied_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('app_crashes_build').on('app_crashes').columns(['build_id', 'stack_hash']).execute();

    await db.schema
      .createTable('app_suggestions')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('app_suggestions_app').on('app_suggestions').column('app_id').execute();

    await db.schema
      .createTable('app_installs')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('hub_key', 'text', (c) => c.notNull())
      .addColumn('build_id', 'integer', (c) => c.notNull().references('app_builds.id').onDelete('cascade'))
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('app_installs_pk', ['app_id', 'hub_key'])
      .execute();

    await db.schema
      .createTable('app_search_keys')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('word', 'text', (c) => c.notNull())
      .addColumn('distance', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('app_search_keys_key').on('app_search_keys').columns(['key', 'app_id']).execute();
    await db.schema.createIndex('app_search_keys_app').on('app_search_keys').column('app_id').execute();
    // Prefix matches (`lum` finds `lumen`) use a pattern index on the words themselves.
    await db.schema
      .createIndex('app_search_keys_word')
      .on('app_search_keys')
      .expression(sql`word text_pattern_ops`)
      .where(sql.ref('distance'), '=', 0)
      .execute();
  },
};

/**
 * Search through one equality lookup: prefixes become keys of the index (the `LIKE` pattern index goes) and the
 * lookup index carries the kind of key. Summaries become one row per app: the live and test versions, the facts
 * shown, the rating and install figures are kept on the app. Existing apps are filled in and re-indexed.
 */
export const appsSearchAndSummariesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('app_search_keys_word').execute();
    await db.schema.dropIndex('app_search_keys_key').execute();
    await db.schema
      .createIndex('app_search_keys_lookup')
      .on('app_search_keys')
      .columns(['key', 'distance', 'app_id', 'word'])
      .execute();
    await db.schema
      .alterTable('apps')
      .addColumn('live_version', 'text')
      .addColumn('test_version', 'text')
      .addColumn('facts', 'jsonb')
      .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('installs', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    const typed = db as unknown as Kysely<AppsTablesWithKeys>;
    const apps = await typed.selectFrom('apps').select(['id', 'live_build_id', 'test_build_id']).execute();
    await typed.deleteFrom('app_search_keys').execute();
    for (const app of apps) {
      const builds = await typed
        .selectFrom('app_builds')
        .select(['id', 'version', 'facts'])
        .where('app_id', '=', app.id)
        .orderBy('id', 'desc')
        .execute();
      const live = builds.find((b) => b.id === app.live_build_id);
      const test = builds.find((b) => b.id === app.test_build_id);
      const facts = live?.facts ?? test?.facts ?? builds.find((b) => b.facts !== null)?.facts ?? null;
      const reviews = await typed.selectFrom('app_reviews').select('rating').where('app_id', '=', app.id).execute();
      const installs = await typed.selectFrom('app_installs').select('hub_key').where('app_id', '=', app.id).execute();
      await typed
        .updateTable('apps')
        .set({
          live_version: live?.version ?? null,
          test_version: test?.version ?? null,
          facts: JSON.stringify(facts),
          rating_sum: reviews.reduce((sum, r) => sum + r.rating, 0),
          rating_count: reviews.length,
          installs: installs.length,
        })
        .where('id', '=', app.id)
        .execute();
      const name = (live?.facts as { name?: string | Record<string, string> } | null | undefined)?.name;
      const rows = name === undefined ? [] : searchRows(app.id, name);
      if (rows.length > 0) await typed.insertInto('app_search_keys').values(rows).execute();
    }
  },
};

/**
 * Search through a word dictionary and postings instead of keys per app: a word's deletion and prefix keys are kept
 * once for the catalogue, and an app lists its words with the field (name, description, id) and language they
 * were found in, so a search can rank names in the asked language first and read descriptions in it. The app keeps
 * its `compatibility` range as version intervals, so that the database filters by hub version.
 */
export const appsSearchDictionaryMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_search_words')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('word', 'text', (c) => c.notNull())
      .addColumn('distance', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('app_search_words_pk', ['key', 'word'])
      .execute();
    await db.schema
      .createTable('app_search_postings')
      .addColumn('word', 'text', (c) => c.notNull())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('field', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('app_search_postings_pk', ['word', 'app_id', 'field', 'language'])
      .execute();
    await db.schema.createIndex('app_search_postings_app').on('app_search_postings').column('app_id').execute();
    await db.schema.alterTable('apps').addColumn('compatibility_ranges', 'jsonb').execute();
    const typed = db as unknown as Kysely<AppsTablesWithRanges>;
    const apps = await typed.selectFrom('apps').select(['id', 'live_build_id', 'facts']).execute();
    for (const app of apps) {
      const facts = app.facts as { name?: string | Record<string, string>; compatibility?: string } | null;
      const ranges = facts?.compatibility ? versionIntervals(facts.compatibility) : null;
      if (ranges)
        await typed
          .updateTable('apps')
          .set({ compatibility_ranges: JSON.stringify(ranges) })
          .where('id', '=', app.id)
          .execute();
      if (app.live_build_id === null || !facts?.name) continue;
      const postings = postingsOf(app.id, facts as { name: string | Record<string, string> });
      if (postings.length === 0) continue;
      await typed
        .insertInto('app_search_postings')
        .values(postings)
        .onConflict((oc) => oc.doNothing())
        .execute();
      await typed
        .insertInto('app_search_words')
        .values(dictionaryOf(postings.map((p) => p.word)))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await db.schema.dropTable('app_search_keys').execute();
  },
};

/**
 * Each posting carries its app's search document (name and description languages, platforms, required hardware,
 * accepted hub versions as an `int8multirange`, SDK level, installs), so that a search ranks and filters without
 * reading the apps; the version intervals kept on the app go. Existing postings are filled in.
 */
export const appsSearchDocumentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('app_search_postings')
      .addColumn('installs', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('name_languages', 'text', (c) => c.notNull().defaultTo(','))
      .addColumn('description_languages', 'text', (c) => c.notNull().defaultTo(','))
      .addColumn('platforms', 'text', (c) => c.notNull().defaultTo(',local,'))
      .addColumn('required_features', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('compatibility', sql`int8multirange`)
      .addColumn('sdk', 'integer', (c) => c.notNull().defaultTo(3))
      .execute();
    await db.schema.alterTable('apps').dropColumn('compatibility_ranges').execute();
    const typed = db as unknown as Kysely<AppsTables>;
    const apps = await typed
      .selectFrom('apps')
      .select(['id', 'facts', 'installs'])
      .where('live_build_id', 'is not', null)
      .execute();
    for (const app of apps) {
      const facts = app.facts as Parameters<typeof searchDocumentOf>[0] | null;
      if (!facts?.name) continue;
      // The columns this migration adds (later migrations fill their own).
      const {
        local_platform_versions: _local,
        cloud_platform_versions: _cloud,
        ...document
      } = searchDocumentOf(facts, app.installs);
      await typed.updateTable('app_search_postings').set(document).where('app_id', '=', app.id).execute();
    }
  },
};

/**
 * Postings carry the platform versions each platform accepts (`platformCompatibility` of the live build), so that the
 * search filters by `homeyPlatformVersion`. No manifest had the field before, so existing postings accept any.
 */
export const appsPlatformVersionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('app_search_postings')
      .addColumn('local_platform_versions', sql`int8multirange`)
      .addColumn('cloud_platform_versions', sql`int8multirange`)
      .execute();
  },
};

/** Browse filters the live apps' facts by containment (`facts @> …`), which this index answers. */
export const appsFactsIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('apps_facts').on('apps').using('gin').expression(sql`facts jsonb_path_ops`).execute();
  },
};
