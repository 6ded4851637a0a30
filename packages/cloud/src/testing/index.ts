import { createHash, randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { hubSecret } from '@hearth/contract/hub-secret';
import { type Fetcher, LOAD_TEST_RATE_LIMITS } from '@hearth/contract/testing';
import type { Migration } from 'kysely';
import pg from 'pg';
import { describe, it } from 'vitest';
import { type CloudConfig, DEFAULT_REGION, type DemoHub } from '../config';
import { openDatabase } from '../database';
import { type Cloud, type StartOptions, startCloud } from '../server';
import { ACCOUNT_CLIENT_ID, DEMO_CLIENTS, DEMO_USER, INTERNAL_CLIENT_ID } from '../services/cloud/seed';

/**
 * Shared helpers of the cloud's tests.
 *
 * Every suite runs on embedded PGlite, and on PostgreSQL when `TEST_DATABASE_URL` (or `DATABASE_URL`) is set.
 * With `CI=true` PostgreSQL is mandatory: the PostgreSQL suite fails when no URL is given. Each cloud a test
 * starts lives in a schema of its own; a file shares one PGlite database (creating one costs seconds and
 * hundreds of MB).
 */

export type Backend = 'pglite' | 'postgres';

export const postgresUrl = (): string | null => process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || null;

export const INTERNAL_SECRET = 'test-internal-secret-0123456789';
/** A test hub's own secret (derived from the internal client's), ready for a `?secret=` query. */
export const hubSecretQuery = (hubId: string): string => encodeURIComponent(hubSecret(INTERNAL_SECRET, hubId));
export const TEST_PUBLIC_URL = 'http://hearth-cloud.test';
export const DEMO_HUBS: DemoHub[] = [
  { id: '5ea7c0de00000000000000a1', name: 'Home', model: 'hearth-pro-5q', url: 'http://127.0.0.1:4100' },
  { id: '5ea7c0de00000000000000b2', name: 'Holiday home', model: 'hearth-pro-mini-6q', url: 'http://127.0.0.1:4101' },
  { id: '5ea7c0de00000000000000c3', name: 'Studio', model: 'hearth-cloud', url: 'http://127.0.0.1:4102' },
];
export { DEMO_CLIENTS, DEMO_USER, INTERNAL_CLIENT_ID };

let sharedPglite: Promise<PGlite> | null = null;

export function testCloudConfig(backend: Backend, overrides: Partial<CloudConfig> = {}): CloudConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    publicUrl: TEST_PUBLIC_URL,
    databaseUrl: backend === 'postgres' ? postgresUrl() : null,
    dataDir: 'memory://',
    databaseSchema: `t_${randomBytes(6).toString('hex')}`,
    logLevel: 'silent',
    smtpUrl: null,
    mailFrom: 'Hearth <no-reply@hearth.test>',
    internalClientSecret: INTERNAL_SECRET,
    accessTokenLifetime: 3600,
    refreshTokenLifetime: 86_400,
    demoHubs: DEMO_HUBS,
    region: DEFAULT_REGION,
    // Suites send thousands of calls a minute with one token; the suites of the limits set their own.
    rateLimits: LOAD_TEST_RATE_LIMITS,
    ...overrides,
  };
}

async function dropSchema(backend: Backend, schema: string): Promise<void> {
  const statement = `DROP SCHEMA IF EXISTS "${schema}" CASCADE`;
  if (backend === 'pglite') {
    if (sharedPglite) await (await sharedPglite).query(statement);
    return;
  }
  const client = new pg.Client({ connectionString: postgresUrl() as string });
  await client.connect();
  await client.query(statement);
  await client.end();
}

/**
 * Starts a cloud with the demo world seeded, in a fresh schema. `stop()` also drops a PostgreSQL schema.
 * `ownPglite` gives the cloud an embedded database of its own, closed with it, instead of the one the test process
 * shares: for a suite that moves `Date` (PostgreSQL's timeouts inside PGlite are armed on its clock, and one armed in
 * a faked future spins the shared instance's timer for the rest of the process once the clock is real again).
 */
export async function startTestCloud(
  backend: Backend,
  overrides: Partial<CloudConfig> = {},
  { ownPglite = false, ...options }: Omit<StartOptions, 'pglite'> & { ownPglite?: boolean } = {},
): Promise<Cloud> {
  const config = testCloudConfig(backend, overrides);
  if (backend === 'pglite' && ownPglite) {
    const pglite = await PGlite.create('memory://');
    const cloud = await startCloud(config, { ...options, pglite });
    return {
      app: cloud.app,
      context: cloud.context,
      services: cloud.services,
      url: cloud.url,
      async stop() {
        await cloud.stop();
        await pglite.close();
      },
    };
  }
  if (backend === 'pglite') {
    sharedPglite ??= PGlite.create('memory://');
    const cloud = await startCloud(config, { ...options, pglite: await sharedPglite });
    return cloud;
  }
  const cloud = await startCloud(config, options);
  return {
    ...cloud,
    app: cloud.app,
    context: cloud.context,
    url: cloud.url,
    async stop() {
      await cloud.stop();
      await dropSchema(backend, config.databaseSchema);
    },
  };
}

/**
 * For migration tests: `open(migrations)` opens one fresh schema migrated up to the given set (open it again
 * with more to migrate further); `drop()` removes the schema.
 */
export function migrationTestDatabase(backend: Backend) {
  const schema = `m_${randomBytes(6).toString('hex')}`;
  const open = async (migrations: Record<string, Migration>) => {
    if (backend === 'postgres') return openDatabase({ databaseUrl: postgresUrl(), dataDir: 'memory://', schema }, migrations);
    sharedPglite ??= PGlite.create('memory://');
    return openDatabase({ dataDir: 'memory://', schema, pglite: await sharedPglite }, migrations);
  };
  const drop = () => dropSchema(backend, schema);
  return { open, drop };
}

/**
 * Declares `suite` once per database backend: always on PGlite; on PostgreSQL when a URL is set. Under CI a
 * missing PostgreSQL fails the run instead of skipping it.
 */
export function describeOnDatabases(name: string, suite: (backend: Backend) => void): void {
  describe(`${name} (PGlite)`, () => suite('pglite'));
  if (postgresUrl()) describe(`${name} (PostgreSQL)`, () => suite('postgres'));
  // The runs with the clock moved to an awkward date (HEARTH_TEST_DATE) are on PGlite only: a PostgreSQL server's
  // clock cannot be moved with the test's.
  else if (process.env.CI === 'true' && !process.env.HEARTH_TEST_DATE)
    describe(`${name} (PostgreSQL)`, () => {
      it('needs PostgreSQL under CI', () => {
        throw new Error('CI=true but neither TEST_DATABASE_URL nor DATABASE_URL is set: the PostgreSQL suite is mandatory');
      });
    });
}

/** Redis for the suites of the shared limit store: `TEST_REDIS_URL` or `REDIS_URL`. */
export const redisUrl = (): string | null => process.env.TEST_REDIS_URL || process.env.REDIS_URL || null;

/**
 * Declares `suite` once per limit store: in process always, Redis when a URL is set (`overrides` start the
 * cloud on it). Under CI a missing Redis fails the run instead of skipping it.
 */
export function describeOnLimitStores(name: string, suite: (overrides: Partial<CloudConfig>) => void): void {
  describe(`${name} (in-process counters)`, () => suite({}));
  const url = redisUrl();
  if (url) describe(`${name} (Redis counters)`, () => suite({ redisUrl: url }));
  else if (process.env.CI === 'true')
    describe(`${name} (Redis counters)`, () => {
      it('needs Redis under CI', () => {
        throw new Error('CI=true but neither TEST_REDIS_URL nor REDIS_URL is set: the Redis suite is mandatory');
      });
    });
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** `POST /cloud/oauth2/token` with form fields; answers the raw response. `via` sends it from another address. */
export function tokenRequest(
  cloud: Cloud,
  fields: Record<string, string>,
  client: { id: string; secret?: string } | null = DEMO_CLIENTS.demo,
  via: Fetcher = fetch,
) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client?.secret) headers.authorization = basic(client.id, client.secret);
  else if (client) fields = { client_id: client.id, ...fields };
  return via(`${cloud.url}/cloud/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
}

/** Signs in with the password grant of the demo client. */
export async function signIn(
  cloud: Cloud,
  email: string = DEMO_USER.email,
  password: string = DEMO_USER.password,
): Promise<Tokens> {
  const response = await tokenRequest(cloud, { grant_type: 'password', username: email, password });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Tokens;
}

/** A token of the internal client (client credentials), for private operations. */
export async function internalToken(cloud: Cloud): Promise<string> {
  const response = await tokenRequest(
    cloud,
    { grant_type: 'client_credentials' },
    { id: INTERNAL_CLIENT_ID, secret: INTERNAL_SECRET },
  );
  if (response.status !== 200) throw new Error(`internal token failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as Tokens).access_token;
}

/** Creates a user through the internal API and signs them in. */
export async function createUser(
  cloud: Cloud,
  email: string,
  password = 'a-good-password-1',
): Promise<{ id: string; token: string; tokens: Tokens }> {
  const internal = await internalToken(cloud);
  const response = await call(cloud, 'POST', '/cloud/user', internal, {
    user: { email, password, firstname: 'Test', lastname: email.split('@')[0] },
  });
  if (response.status !== 201) throw new Error(`create user failed: ${response.status} ${await response.text()}`);
  const user = (await response.json()) as { _id: string };
  const tokens = await signIn(cloud, email, password);
  return { id: user._id, token: tokens.access_token, tokens };
}

/** A JSON call with a Bearer token; `via` sends it from another address. */
export function call(
  cloud: Cloud,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  via: Fetcher = fetch,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return via(`${cloud.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

/** A PKCE pair (S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Opens the sign-in page: answers the page, its CSRF cookie and form token. */
export async function openSignInPage(cloud: Cloud, query: Record<string, string>, via?: Fetcher) {
  const url = `${cloud.url}/cloud/oauth2/authorise?${new URLSearchParams(query)}`;
  const response = await (via ? via(url) : fetch(url, { redirect: 'manual' }));
  const html = await response.text();
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { response, html, cookie, csrf };
}

/** Submits the sign-in form (fields as the page carries them) and answers the raw response. */
export function submitSignIn(cloud: Cloud, cookie: string, fields: Record<string, string>, via?: Fetcher) {
  const url = `${cloud.url}/cloud/oauth2/authorise`;
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  };
  return via ? via(url, init) : fetch(url, { ...init, redirect: 'manual' });
}

/**
 * Signs a user (the demo user by default) in on the sign-in page for the authorisation request `query`, and
 * answers the code the page redirects back with.
 */
export async function authorizationCode(
  cloud: Cloud,
  query: Record<string, string>,
  credentials: { email: string; password: string } = { email: DEMO_USER.email, password: DEMO_USER.password },
): Promise<string> {
  const { cookie, csrf } = await openSignInPage(cloud, query);
  const submitted = await submitSignIn(cloud, cookie, { ...query, csrf, ...credentials });
  const location = submitted.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`the sign-in page gave no code: ${submitted.status} ${location ?? ''}`);
  return code;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read open JSON answers and assert on them
export type Json = Record<string, any>;

/** The JSON body of a response, typed loosely for assertions. */
export const readJson = async (response: Response): Promise<Json> => (await response.json()) as Json;

/**
 * Signs in as the account pages do (authorization code with PKCE for `hearth-account`, on the sign-in page) and
 * answers their tokens: the session that may add passkeys.
 */
export async function accountPagesSignIn(cloud: Cloud, email: string, password: string): Promise<Tokens> {
  const { verifier, challenge } = pkcePair();
  const redirect = `${cloud.context.config.publicUrl}/`;
  const query = {
    response_type: 'code',
    client_id: ACCOUNT_CLIENT_ID,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'account-pages',
  };
  const code = await authorizationCode(cloud, query, { email, password });
  const response = await tokenRequest(
    cloud,
    { grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier },
    { id: ACCOUNT_CLIENT_ID },
  );
  if (response.status !== 200) throw new Error(`account sign-in failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Tokens;
}
