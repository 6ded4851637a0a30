import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../database';
import { migrations } from '../../database/migrations';
import { describeOnDatabases, postgresUrl } from '../../testing';

const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= '20261122-50-apps-catalogue'));

describeOnDatabases('app catalogue migrations', (backend) => {
  let pglite: PGlite | undefined;
  const schema = `m_${Math.random().toString(16).slice(2, 10)}`;
  const open = (set: typeof migrations) =>
    openDatabase(
      backend === 'postgres'
        ? { databaseUrl: postgresUrl(), dataDir: 'memory://', schema }
        : { dataDir: 'memory://', schema, pglite },
      set,
    );

  beforeAll(async () => {
    if (backend === 'pglite') pglite = await PGlite.create('memory://');
  });
  afterAll(async () => {
    if (backend === 'postgres') {
      const database = await open(migrations);
      const { sql } = await import('kysely');
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db);
      await database.close();
    }
    await pglite?.close();
  });

  it('keeps the summaries, search words and compatibility of apps published before those columns existed', async () => {
    const old = await open(before);
    const db = old.db;
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'dev@m.test',
        password_hash: 'x',
        firstname: 'D',
        lastname: 'V',
        language: 'en',
        role_ids: '[]',
        updated_at: new Date(),
      })
      .execute();
    await db
      .insertInto('apps')
      .values({ id: 'com.old.lamp', author_user_id: 'u1', highlighted: false, settings: '{}', updated_at: new Date() })
      .execute();
    const facts = JSON.stringify({
      name: { en: 'Old Lamp', nl: 'Oude Lamp' },
      category: ['lights'],
      platforms: ['local'],
      compatibility: '>=5.0.0',
    });
    const build = await db
      .insertInto('app_builds')
      .values({
        app_id: 'com.old.lamp',
        version: '1.2.0',
        channel: 'stable',
        env: '{}',
        changelog: '{}',
        readme: '{}',
        facts,
        manifest: '{}',
        archive_id: 'a1',
        published_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('apps').set({ live_build_id: build.id }).where('id', '=', 'com.old.lamp').execute();
    await db
      .insertInto('app_reviews')
      .values({ app_id: 'com.old.lamp', user_id: 'u1', version: '1.2.0', rating: 4, comment: '', updated_at: new Date() })
      .execute();
    await db
      .insertInto('app_installs')
      .values({
        app_id: 'com.old.lamp',
        hub_key: 'h1',
        build_id: build.id,
        version: '1.2.0',
        channel: 'stable',
        updated_at: new Date(),
      })
      .execute();
    await old.close();

    const current = await open(migrations);
    const app = await current.db.selectFrom('apps').selectAll().where('id', '=', 'com.old.lamp').executeTakeFirstOrThrow();
    expect(app).toMatchObject({
      live_version: '1.2.0',
      rating_sum: 4,
      rating_count: 1,
      installs: 1,
      facts: { name: { en: 'Old Lamp' } },
    });
    const postings = await current.db
      .selectFrom('app_search_postings')
      .select(['word', 'field', 'language'])
      .where('app_id', '=', 'com.old.lamp')
      .execute();
    expect(postings).toContainEqual({ word: 'oude', field: 'name', language: 'nl' });
    expect(postings).toContainEqual({ word: 'lamp', field: 'id', language: '' });
    const keys = await current.db.selectFrom('app_search_words').select(['key', 'distance']).where('word', '=', 'lamp').execute();
    expect(keys).toContainEqual({ key: 'lamp', distance: 0 });
    expect(keys).toContainEqual({ key: 'la', distance: 2 });
    const document = await current.db
      .selectFrom('app_search_postings')
      .select(['compatibility', 'installs', 'name_languages', 'platforms', 'local_platform_versions'])
      .where('app_id', '=', 'com.old.lamp')
      .where('word', '=', 'oude')
      .executeTakeFirstOrThrow();
    expect(document).toEqual({
      compatibility: '{[5000000000000,)}',
      installs: 1,
      name_languages: ',en,nl,',
      platforms: ',local,',
      // No platform version ranges before `platformCompatibility`: any platform version suits.
      local_platform_versions: null,
    });
    await current.close();
  });
});
