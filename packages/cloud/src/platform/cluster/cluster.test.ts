import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchFrom, limitFields } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudConfig } from '../../config';
import type { Cloud } from '../../server';
import { BACKUP_SWEEP } from '../../services/backup';
import {
  call,
  DEMO_CLIENTS,
  DEMO_HUBS,
  DEMO_USER,
  hubSecretQuery,
  openSignInPage,
  pkcePair,
  postgresUrl,
  readJson,
  redisUrl,
  signIn,
  startTestCloud,
  submitSignIn,
  TEST_PUBLIC_URL,
  tokenRequest,
} from '../../testing';

/**
 * Two cloud nodes on one PostgreSQL schema, one Redis and one blob folder, as a load balancer would see them:
 * whatever one node started, the other must finish, and what one counted, the other must see.
 */
function describeCluster(name: string, suite: () => void): void {
  if (postgresUrl() && redisUrl()) describe(name, suite);
  else if (process.env.CI === 'true')
    describe(name, () => {
      it('needs PostgreSQL and Redis under CI', () => {
        throw new Error('CI=true but DATABASE_URL or REDIS_URL is not set: the cluster suite is mandatory');
      });
    });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const HOME = DEMO_HUBS[0]?.id as string;
const secretOfHome = hubSecretQuery(HOME);
/** Links carry the public address; the test nodes listen elsewhere: keep the path and query. */
const on = (node: Cloud, url: string) => `${node.url}${new URL(url).pathname}${new URL(url).search}`;

describeCluster('a cloud of two nodes', () => {
  let a: Cloud;
  let b: Cloud;
  let blobDir: string;

  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'hearth-cluster-blobs-'));
    const shared: Partial<CloudConfig> = {
      databaseSchema: `t_${randomBytes(6).toString('hex')}`,
      redisUrl: redisUrl(),
      blobStore: { kind: 'directory', dir: blobDir },
      rateLimits: { perToken: 6, perAddress: 10_000, windowSeconds: 60 },
      trustProxy: '127.0.0.1',
    };
    // One after the other, as the cluster command starts them: the first migrates and seeds.
    a = await startTestCloud('postgres', shared);
    b = await startTestCloud('postgres', shared);
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await rm(blobDir, { recursive: true, force: true });
  });

  it('accepts on one node the sign-in form another node served', async () => {
    const { verifier, challenge } = pkcePair();
    const query = {
      client_id: DEMO_CLIENTS.supportForm.id,
      redirect_uri: `${TEST_PUBLIC_URL}/support/`,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const { cookie, csrf } = await openSignInPage(a, query);
    expect(csrf).not.toBe('');
    const submitted = await submitSignIn(b, cookie, { ...query, csrf, email: DEMO_USER.email, password: DEMO_USER.password });
    expect(submitted.status).toBe(302);
    const code = new URL(submitted.headers.get('location') ?? '').searchParams.get('code');
    expect(code).toBeTruthy();
    // The code the second node issued is exchanged at the first.
    const exchanged = await tokenRequest(
      a,
      { grant_type: 'authorization_code', code: code as string, code_verifier: verifier, redirect_uri: query.redirect_uri },
      { id: DEMO_CLIENTS.supportForm.id },
    );
    expect(exchanged.status).toBe(200);
    // A forged form token is refused by both.
    for (const node of [a, b]) {
      const forged = await submitSignIn(node, cookie, { ...query, csrf: `${csrf}x`, email: DEMO_USER.email, password: 'x' });
      expect(forged.status).toBe(403);
    }
  });

  it('holds on one node the sign-in throttle counted on the other', async () => {
    const guesser = fetchFrom('127.0.5.1');
    const guess = (node: Cloud) =>
      tokenRequest(node, { grant_type: 'password', username: DEMO_USER.email, password: 'not-the-password' }, undefined, guesser);
    // Five failures are free (rule 1), spread over both nodes.
    for (const node of [a, b, a, b, a]) expect((await guess(node)).status).toBe(400);
    const held = await guess(b);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts one token’s requests on every node against one limit', async () => {
    const { access_token: token } = await signIn(a);
    const answers: number[] = [];
    for (const node of [a, b, a, b, a, b]) answers.push((await call(node, 'GET', '/cloud/user/me', token)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
    const refused = await call(a, 'GET', '/cloud/user/me', token);
    expect(refused.status).toBe(429);
    expect(limitFields(refused).retryAfter).toBeGreaterThan(0);
    expect((await call(b, 'GET', '/cloud/user/me', token)).status).toBe(429);
  });

  it('keeps an upload received by one node for the other: a backup uploaded to A is completed and downloaded on B', async () => {
    const bytes = randomBytes(200_000);
    const created = await readJson(
      await call(a, 'POST', `/backup/user/${DEMO_USER.id}/homey/${HOME}?secret=${secretOfHome}`, null, {
        homeyName: 'Home',
        version: '12.4.0',
        channel: 'stable',
      }),
    );
    const uploaded = await fetch(on(a, created.url), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(uploaded.status).toBe(200);
    const done = await call(
      b,
      'PUT',
      `/backup/user/${DEMO_USER.id}/homey/${HOME}/backup/${created._id}/complete?secret=${secretOfHome}`,
      null,
      { size: bytes.length, hash: sha256(bytes) },
    );
    expect(done.status).toBe(200);
    // The download link B gives is signed with the key every node shares.
    const withLink = await readJson(
      await call(b, 'GET', `/backup/user/${DEMO_USER.id}/backup/${created._id}?secret=${secretOfHome}`, null),
    );
    const download = await fetch(on(b, withLink.url));
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('runs each background sweep on one node per period', async () => {
    const now = new Date(Date.now() + 365 * 24 * 3600_000);
    const ran = await Promise.all([a.context.sweeps.tick(BACKUP_SWEEP, now), b.context.sweeps.tick(BACKUP_SWEEP, now)]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    // A tick later in the same period, on either node, leaves it be; the next period's first tick runs it.
    const later = new Date(now.getTime() + 10 * 60_000);
    expect(await a.context.sweeps.tick(BACKUP_SWEEP, later)).toBe(false);
    expect(await b.context.sweeps.tick(BACKUP_SWEEP, later)).toBe(false);
    const next = new Date(now.getTime() + 3600_000);
    expect(await b.context.sweeps.tick(BACKUP_SWEEP, next)).toBe(true);
    expect(await a.context.sweeps.tick(BACKUP_SWEEP, next)).toBe(false);
  });

  it('names every request by an id unique across nodes, taking the balancer’s only from a trusted proxy', async () => {
    const ids = await Promise.all(
      [a, b, a, b].map(async (node) => (await fetch(`${node.url}/region/`)).headers.get('x-request-id')),
    );
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(4);
    const viaBalancer = await fetch(`${a.url}/region/`, { headers: { 'x-request-id': 'lb-0a1b2c3d' } });
    expect(viaBalancer.headers.get('x-request-id')).toBe('lb-0a1b2c3d');
    const untrusted = await fetchFrom('127.0.5.2')(`${a.url}/region/`, { headers: { 'x-request-id': 'lb-0a1b2c3d' } });
    expect(untrusted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
