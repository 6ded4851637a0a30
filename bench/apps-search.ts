// Issue 6 benchmark: app catalogue search with 5,000 generated live apps. Latency of GET /apps/app/search over
// HTTP (exact words, prefixes and one-typo queries, in every language of the names) against a plain indexed lookup
// through the same server (GET /apps/app/:appId/thanks: a primary-key read and an indexed count) in the same run.
// Goal: search p99 < 30 ms, and every query finds its app. Runs on PGlite, and on PostgreSQL when DATABASE_URL is
// set. Run: npx tsx bench/apps-search.ts
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { CloudConfig } from '../packages/cloud/src/config';
import { type Cloud, startCloud } from '../packages/cloud/src/server';
import { catalogueOf } from '../packages/cloud/src/services/apps';
import { fmt, line, percentile } from './lib/report';

const APPS = Number(process.env.BENCH_APPS ?? 5000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 400);

// A seeded generator so that every run (and both databases) searches the same catalogue.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const syllables = ['lu', 'men', 'tor', 'ka', 'vi', 'ro', 'sen', 'dal', 'mi', 'no', 'qua', 'zen', 'bri', 'sto', 'fel', 'ga'];
const word = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(syllables)).join('');
const kinds = {
  en: ['Lights', 'Climate', 'Security', 'Energy', 'Speakers', 'Sensors'],
  nl: ['Verlichting', 'Klimaat', 'Beveiliging', 'Energie', 'Luidsprekers', 'Sensoren'],
};

interface Generated {
  id: string;
  name: Record<string, string>;
  words: string[];
}

function generate(): Generated[] {
  const apps: Generated[] = [];
  const seen = new Set<string>();
  while (apps.length < APPS) {
    const brand = word();
    const kind = Math.floor(random() * kinds.en.length);
    const id = `com.${brand}.${kinds.en[kind]?.toLowerCase()}${apps.length}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const name = { en: `${cap(brand)} ${kinds.en[kind]}`, nl: `${cap(brand)} ${kinds.nl[kind]}` };
    apps.push({ id, name, words: [brand] });
  }
  return apps;
}
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** A query for an app: its brand word exactly, as a prefix, or with one typo (a letter dropped or two swapped). */
function queryFor(app: Generated, n: number): string {
  const brand = app.words[0] as string;
  switch (n % 3) {
    case 0:
      return brand;
    case 1:
      return brand.slice(0, Math.max(4, brand.length - 2));
    default: {
      const i = 1 + Math.floor(random() * (brand.length - 2));
      return brand.length < 5 ? brand : brand.slice(0, i) + (brand[i + 1] ?? '') + (brand[i] ?? '') + brand.slice(i + 2);
    }
  }
}

async function fill(cloud: Cloud, apps: Generated[]) {
  const db = cloud.context.database.db;
  const userId = randomBytes(12).toString('hex');
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `bench-${userId}@hearth.test`,
      password_hash: 'x',
      firstname: 'Bench',
      lastname: 'Developer',
      language: 'en',
      role_ids: '[]',
      updated_at: new Date(),
    })
    .execute();
  for (let i = 0; i < apps.length; i += 500) {
    const chunk = apps.slice(i, i + 500);
    await db
      .insertInto('apps')
      .values(
        chunk.map((app) => ({
          id: app.id,
          author_user_id: userId,
          highlighted: false,
          settings: JSON.stringify({ sendEmailCrash: false, sendEmailSuggestion: false, sendEmailThanks: false }),
          updated_at: new Date(),
        })),
      )
      .execute();
    const facts = new Map(
      chunk.map((app) => [
        app.id,
        JSON.stringify({
          name: app.name,
          sdk: 3,
          category: ['lights'],
          tags: [],
          platforms: ['local'],
          permissions: [],
          features: ['drivers'],
          drivers: [{ id: 'device', name: { en: 'Device' }, class: 'light', connectivity: ['zigbee'] }],
          discovery: {},
        }),
      ]),
    );
    const builds = await db
      .insertInto('app_builds')
      .values(
        chunk.map((app) => ({
          app_id: app.id,
          version: '1.0.0',
          channel: 'stable' as const,
          env: '{}',
          changelog: '{}',
          readme: '{}',
          facts: facts.get(app.id) as string,
          manifest: '{}',
          archive_id: randomBytes(12).toString('hex'),
          published_at: new Date(),
        })),
      )
      .returning(['id', 'app_id'])
      .execute();
    // What the catalogue's refreshPublication keeps on each app: its live build, version and facts.
    for (const build of builds)
      await db
        .updateTable('apps')
        .set({ live_build_id: build.id, live_version: '1.0.0', facts: facts.get(build.app_id) as string })
        .where('id', '=', build.app_id)
        .execute();
    // Postings and dictionary words, as publishing writes them.
    await catalogueOf(cloud.context).indexApps(chunk.map((app) => app.id));
  }
}

async function timed(url: string): Promise<{ ms: number; body: unknown }> {
  const start = performance.now();
  const response = await fetch(url);
  const body = await response.json();
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function run(backend: 'pglite' | 'postgres') {
  seed = 42;
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const config: CloudConfig = {
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://127.0.0.1',
    databaseUrl: backend === 'postgres' ? (process.env.DATABASE_URL as string) : null,
    dataDir: 'memory://',
    databaseSchema: schema,
    logLevel: 'silent',
    smtpUrl: null,
    mailFrom: 'Hearth <bench@hearth.test>',
    internalClientSecret: null,
    accessTokenLifetime: 3600,
    refreshTokenLifetime: 86_400,
    demoHubs: null,
  };
  const cloud = await startCloud(config);
  try {
    const apps = generate();
    const filling = performance.now();
    await fill(cloud, apps);
    console.log(
      `\n${backend === 'pglite' ? 'PGlite' : 'PostgreSQL'}: ${apps.length} live apps indexed in ${fmt((performance.now() - filling) / 1000)} s`,
    );
    const base = `${cloud.url}/apps/app`;
    const sample = Array.from({ length: QUERIES }, (_, n) => {
      const app = pick(apps);
      return { app, n, query: queryFor(app, n) };
    });
    // Warm-up: JIT, query plans, connection pools.
    for (const { app, query } of sample.slice(0, 50)) {
      await timed(`${base}/search?query=${encodeURIComponent(query)}`);
      await timed(`${base}/${app.id}/thanks`);
    }
    const search: number[] = [];
    const lookup: number[] = [];
    let found = 0;
    const misses: string[] = [];
    for (const { app, n, query } of sample) {
      const language = n % 2 === 0 ? 'en' : 'nl';
      const { ms, body } = await timed(`${base}/search?query=${encodeURIComponent(query)}&language=${language}`);
      search.push(ms);
      if ((body as { id: string }[]).some((hit) => hit.id === app.id)) found++;
      else if (misses.length < 5) misses.push(`${query} → ${app.id}`);
      lookup.push((await timed(`${base}/${app.id}/thanks`)).ms);
    }
    search.sort((a, b) => a - b);
    lookup.sort((a, b) => a - b);
    const p99 = percentile(search, 99);
    line('search p50 / p99 (ms)', `${fmt(percentile(search, 50))} / ${fmt(p99)}`, { text: 'p99 < 30 ms', met: p99 < 30 });
    line('baseline indexed lookup p50 / p99 (ms)', `${fmt(percentile(lookup, 50))} / ${fmt(percentile(lookup, 99))}`);
    line('search p99 / baseline p99', `${fmt(p99 / percentile(lookup, 99), 2)}x`);
    line('queries that found their app (exact, prefix, typo)', `${found} / ${sample.length}`, {
      text: 'all',
      met: found === sample.length,
    });
    for (const miss of misses) line('  missed', miss);
  } finally {
    await cloud.stop();
    if (backend === 'postgres') {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }
}

console.log(`App catalogue search (${APPS} apps, ${QUERIES} queries each, sequential over HTTP)`);
await run('pglite');
if (process.env.DATABASE_URL) await run('postgres');
