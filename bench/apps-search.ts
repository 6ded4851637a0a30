// Issue 6 benchmark: app catalogue search with 5,000 generated live apps (names in English and Dutch, descriptions
// in English and for half of them Dutch, varied compatibility ranges, platforms and required hardware). Latency of
// GET /apps/app/search over HTTP, sequentially, for three kinds of query:
//   targeted  a brand word of one app: exact, as a prefix, or with one typo, in English or Dutch
//   broad     a word many apps share (a kind word of 1/6 of the names, with or without a typo, a description word,
//             a two-letter prefix, two words)
//   filtered  targeted queries with hub filters (version, platform, model), checked against the filter's verdict
// against a plain indexed lookup through the same server (GET /apps/app/:appId/thanks: a primary-key read and an
// indexed count) in the same run. Goal: search p99 < 30 ms over all queries, and every targeted query finds its app.
// Runs on PGlite, and on PostgreSQL when DATABASE_URL is set. Run: npx tsx bench/apps-search.ts
import { randomBytes } from 'node:crypto';
import { LOAD_TEST_RATE_LIMITS } from '@hearth/contract/testing';
import pg from 'pg';
import type { CloudConfig } from '../packages/cloud/src/config';
import { type Cloud, startCloud } from '../packages/cloud/src/server';

import { compatible, type HubFilter } from '../packages/cloud/src/services/apps/compatibility';
import { fmt, line, percentile } from './lib/report';

const APPS = Number(process.env.BENCH_APPS ?? 5000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 400);

// A seeded generator (mulberry32) so that every run (and both databases) searches the same catalogue.
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const syllables = ['lu', 'men', 'tor', 'ka', 'vi', 'ro', 'sen', 'dal', 'mi', 'no', 'qua', 'zen', 'bri', 'sto', 'fel', 'ga'];
const word = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(syllables)).join('');
const kinds = {
  en: ['Lights', 'Climate', 'Security', 'Energy', 'Speakers', 'Sensors'],
  nl: ['Verlichting', 'Klimaat', 'Beveiliging', 'Energie', 'Luidsprekers', 'Sensoren'],
};
const compatibilities = ['>=5.0.0', '>=5.0.0', '>=8.0.0', '>=12.0.0 <13.0.0', '^8.1.0 || >=12.2.0', '>=12.5.0'];

interface Generated {
  id: string;
  brand: string;
  kind: number;
  installs: number;
  facts: {
    name: Record<string, string>;
    description: Record<string, string>;
    compatibility: string;
    platforms: string[];
    platformLocalRequiredFeatures?: string[];
    platformCompatibility?: Record<string, string>;
  };
}

function generate(): Generated[] {
  const apps: Generated[] = [];
  const seen = new Set<string>();
  while (apps.length < APPS) {
    const brand = word();
    const kind = Math.floor(random() * kinds.en.length);
    // One app per brand, so that the id's words are those of the name (`com.lumen.lights`).
    if (seen.has(brand)) continue;
    seen.add(brand);
    const id = `com.${brand}.${kinds.en[kind]?.toLowerCase()}`;
    const en = kinds.en[kind] as string;
    const nl = kinds.nl[kind] as string;
    apps.push({
      id,
      brand,
      kind,
      installs: Math.floor(random() ** 3 * 20_000),
      facts: {
        name: { en: `${cap(brand)} ${en}`, nl: `${cap(brand)} ${nl}` },
        description: {
          en: `Control your ${cap(brand)} ${en.toLowerCase()} from your hub`,
          ...(random() < 0.5 ? { nl: `Bedien je ${cap(brand)} ${nl.toLowerCase()} vanaf je hub` } : {}),
        },
        compatibility: pick(compatibilities),
        platforms: random() < 0.3 ? ['local', 'cloud'] : ['local'],
        ...(random() < 0.2 ? { platformLocalRequiredFeatures: ['zwave'] } : {}),
        ...(random() < 0.15 ? { platformCompatibility: { local: '>=2' } } : {}),
      },
    });
  }
  return apps;
}
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** A query for an app: its brand word exactly, as a prefix, or with one typo (a letter dropped or two swapped). */
function targeted(app: Generated, n: number): string {
  const brand = app.brand;
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

/** A query many apps answer: a kind word (with a typo every other time), a description word, a short prefix, two words. */
function broad(app: Generated, n: number): string {
  const kind = (n % 2 === 0 ? kinds.en : kinds.nl)[app.kind]?.toLowerCase() as string;
  switch (n % 5) {
    case 0:
      return kind;
    case 1:
      return kind.slice(0, 2) + (kind[3] ?? '') + (kind[2] ?? '') + kind.slice(4);
    case 2:
      return n % 2 === 0 ? 'control' : 'bedien';
    case 3:
      return app.brand.slice(0, 2);
    default:
      return `${app.brand} ${kind}`;
  }
}

const filters: HubFilter[] = [
  { homeyVersion: '12.4.0', homeyModel: 'hearth-pro-5q' },
  { homeyVersion: '12.4.0', homeyModel: 'hearth-pro-mini-6q' },
  { homeyVersion: '8.2.0', homeyPlatform: 'local' },
  { homeyVersion: '12.6.0', homeyModel: 'hearth-cloud' },
  { homeyVersion: '12.4.0', homeyPlatformVersion: '1' },
];
const filterQuery = (filter: HubFilter) =>
  Object.entries(filter)
    .map(([key, value]) => `&${key}=${encodeURIComponent(String(value))}`)
    .join('');

async function fill(cloud: Cloud, apps: Generated[]) {
  const db = cloud.context.database.db;
  const catalogue = cloud.services.catalogue;
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
          installs: app.installs,
          updated_at: new Date(),
        })),
      )
      .execute();
    const facts = new Map(
      chunk.map((app) => [
        app.id,
        JSON.stringify({
          ...app.facts,
          sdk: 3,
          category: ['lights'],
          tags: [],
          permissions: [],
          features: ['drivers'],
          drivers: [{ id: 'device', name: { en: 'Device' }, class: 'light', connectivity: ['zigbee'] }],
          discovery: {},
        }),
      ]),
    );
    await db
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
      .execute();
    // What the catalogue's refreshPublication keeps on each app: its live build, version, facts and their
    // compatibility, and the search postings and dictionary words.
    for (const app of chunk) await catalogue.builds.refreshPublication(app.id);
  }
}

/** The answers of the first database, by query, to compare the second's with. */
const answers = new Map<string, string>();

async function timed(url: string): Promise<{ ms: number; body: unknown }> {
  const start = performance.now();
  const response = await fetch(url);
  const body = await response.json();
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

/**
 * Browse without a query (filters and paging in the database) against reading every live app (`GET /app/all`, what
 * browse read before filtering in memory), with the totals checked against the generated facts.
 */
async function browse(base: string, apps: Generated[]) {
  const cloudApps = apps.filter((app) => app.facts.platforms.includes('cloud')).length;
  const cases = [
    { filters: 'platform=cloud', total: cloudApps },
    { filters: 'platform=cloud&features=drivers&offset=48', total: cloudApps },
    { filters: 'connectivity=zigbee&category=lights', total: apps.length },
    { filters: 'connectivity=zwave', total: 0 },
    { filters: '', total: apps.length },
  ];
  const times: number[] = [];
  const all: number[] = [];
  let right = 0;
  for (let n = 0; n < 100; n++) {
    const { filters, total } = cases[n % cases.length] as (typeof cases)[number];
    const { ms, body } = await timed(`${base}/browse?${filters}`);
    if (n >= 10) times.push(ms);
    if ((body as { total: number }).total === total) right++;
    if (n % 10 === 0) all.push((await timed(`${base}/all`)).ms);
  }
  times.sort((a, b) => a - b);
  all.sort((a, b) => a - b);
  line('browse without query p50 / p99 (ms)', `${fmt(percentile(times, 50))} / ${fmt(percentile(times, 99))}`);
  line('baseline every live app (GET /app/all) p50 (ms)', fmt(percentile(all, 50)));
  line('browse / every live app (p50)', `${fmt(percentile(times, 50) / percentile(all, 50), 2)}x`);
  line('browse totals right', `${right} / 100`, { text: 'all', met: right === 100 });
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
    region: 'eu',
    demoHubs: null,
    rateLimits: LOAD_TEST_RATE_LIMITS,
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
    const kindsOf = ['targeted', 'broad', 'filtered'] as const;
    const sample = Array.from({ length: QUERIES }, (_, n) => {
      const app = pick(apps);
      const kind = kindsOf[n % 3] as (typeof kindsOf)[number];
      const language = n % 2 === 0 ? 'en' : 'nl';
      const filter = kind === 'filtered' ? (filters[n % filters.length] as HubFilter) : {};
      const query = kind === 'broad' ? broad(app, Math.floor(n / 3)) : targeted(app, Math.floor(n / 3));
      return {
        app,
        kind,
        filter,
        url: `${base}/search?query=${encodeURIComponent(query)}&language=${language}${filterQuery(filter)}`,
      };
    });
    // Warm-up: JIT, query plans, connection pools.
    for (const { app, url } of sample.slice(0, 60)) {
      await timed(url);
      await timed(`${base}/${app.id}/thanks`);
    }
    const times: Record<(typeof kindsOf)[number] | 'all', number[]> = { targeted: [], broad: [], filtered: [], all: [] };
    const lookup: number[] = [];
    const wrong: string[] = [];
    let checked = 0;
    let same = 0;
    for (const { app, kind, filter, url } of sample) {
      const { ms, body } = await timed(url);
      times[kind].push(ms);
      times.all.push(ms);
      const ids = (body as { id: string }[]).map((hit) => hit.id);
      const key = url.slice(base.length);
      if (backend === 'pglite') answers.set(key, ids.join());
      else if (answers.get(key) === ids.join()) same++;
      if (kind !== 'broad') {
        checked++;
        const expected = compatible(app.facts, filter);
        if (ids.includes(app.id) !== expected && wrong.length < 5)
          wrong.push(`${decodeURIComponent(url.slice(base.length))} → ${app.id} ${expected ? 'missing' : 'answered'}`);
        else if (ids.includes(app.id) !== expected) wrong.push('');
      }
      lookup.push((await timed(`${base}/${app.id}/thanks`)).ms);
    }
    for (const list of [...Object.values(times), lookup]) list.sort((a, b) => a - b);
    const p99 = percentile(times.all, 99);
    const lookup99 = percentile(lookup, 99);
    for (const kind of kindsOf)
      line(`${kind} search p50 / p99 (ms)`, `${fmt(percentile(times[kind], 50))} / ${fmt(percentile(times[kind], 99))}`);
    line('all searches p50 / p99 (ms)', `${fmt(percentile(times.all, 50))} / ${fmt(p99)}`, {
      text: 'p99 < 30 ms',
      met: p99 < 30,
    });
    line('baseline indexed lookup p50 / p99 (ms)', `${fmt(percentile(lookup, 50))} / ${fmt(lookup99)}`);
    line(
      'search / baseline (p50, p99)',
      `${fmt(percentile(times.all, 50) / percentile(lookup, 50), 2)}x, ${fmt(p99 / lookup99, 2)}x`,
    );
    line('targeted and filtered queries answered right', `${checked - wrong.length} / ${checked}`, {
      text: 'all',
      met: wrong.length === 0,
    });
    for (const miss of wrong.filter(Boolean)) line('  wrong', miss);
    if (backend === 'postgres')
      line("answers equal to PGlite's (same ids, same order)", `${same} / ${sample.length}`, {
        text: 'all',
        met: same === sample.length,
      });
    await browse(base, apps);
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
