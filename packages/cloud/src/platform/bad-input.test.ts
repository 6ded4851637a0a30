import { type AnyOperation, cloudOperations, listOperations, operationId } from '@hearth/contract';
import {
  badInputProbes,
  dummy,
  type Expected,
  expectationProblem,
  fetchFrom,
  type ProbeOptions,
  plainRequest,
  type RawAnswer,
  type RawRequest,
  type Schema,
  sendRawRequest,
  uniformityProblem,
} from '@hearth/contract/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../server';
import {
  call,
  DEMO_CLIENTS,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  internalToken,
  startTestCloud,
  tokenRequest,
} from '../testing';

/**
 * Every operation the cloud declares, called with bad input over real HTTP (the probes of
 * `@hearth/contract/testing`: wrong types, bodies that are not JSON objects or not JSON, missing fields, NUL and
 * unpaired surrogates, numbers that overflow, values nested ten thousand levels, free-form values over their
 * limits, oversized bodies, odd path and query values, unknown ids) by the demo user, or by the provider's internal
 * client for private operations, so every probe reaches validation. Whatever the input, the cloud answers below
 * 500, every refusal has the uniform error body with a catalogued code, and a refusal writes no row: triggers on
 * every table of the cloud's schema count the rows written, in the writing transaction, so a write rolled back
 * with a refusal does not count.
 */

/**
 * Signs the demo user in from a loopback address of its own (127.0.0.2): the probes of the token endpoint, sent
 * from 127.0.0.1, count as failed sign-ins of their address, which must not decide whether the walk can sign in
 * again after a probe signed it out (`logout`, `deletePersonalAccessTokenApps`).
 */
async function signInAside(cloud: Cloud): Promise<string> {
  const fields = { grant_type: 'password', username: DEMO_USER.email, password: DEMO_USER.password };
  const response = await tokenRequest(cloud, fields, DEMO_CLIENTS.demo, fetchFrom('127.0.0.2'));
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

const cloudOperationList = listOperations(cloudOperations as unknown as Record<string, Record<string, AnyOperation>>);

/** An id the caller does not hold: unknown, or someone else's the cloud will not confirm exists. */
const UNKNOWN_ID = { status: [403, 404], errors: ['not_found', 'forbidden'] } as const;

/**
 * Operations that answer an unknown id as they answer a known one they refuse: activating a hub without its claim
 * token tells nobody which hub ids exist (400 without a token, 403 with a wrong one).
 */
const UNKNOWN_ID_ANSWERS: Record<string, Expected> = {
  'cloud:cloud.activateHomey': { status: [400, 403], errors: ['missing_parameter', 'forbidden'] },
};

/** Operations whose id is one they create: the first build under an unknown app id publishes that app. */
const SETS_BY_KEY = ['cloud:apps.createBuild'];

/**
 * The demo user's own account and first hub in the path, so bad input reaches what their real ids reach (the
 * hub's metadata, the account's addresses): outside a DELETE, whose accepted probes would remove what the walk
 * goes on using.
 */
const knownIds =
  (userId: string) =>
  (operation: AnyOperation, name: string): string | undefined => {
    if (operation.method === 'DELETE' || operationId(operation).split('.')[0] !== 'cloud:cloud') return undefined;
    const hubRoute = operation.path.startsWith('/homey');
    if (name === 'homeyId' || (name === 'id' && hubRoute)) return DEMO_HUBS[0]?.id;
    if ((name === 'userId' && !hubRoute) || (name === 'id' && operation.path.startsWith('/user/'))) return userId;
    return undefined;
  };

describeOnDatabases('bad input to every cloud operation', (backend) => {
  let cloud: Cloud;
  let userToken: string;
  let providerToken: string;
  let probeOptions: ProbeOptions;

  /** Installs the row-write counter on every table of the cloud's schema. */
  async function countWrites(): Promise<void> {
    const { db, schema } = cloud.context.database;
    const counter = sql.id(schema, 'probe_writes');
    await sql`CREATE TABLE ${counter} (n bigint NOT NULL)`.execute(db);
    await sql`INSERT INTO ${counter} VALUES (0)`.execute(db);
    await sql`CREATE FUNCTION ${sql.id(schema, 'count_probe_write')}() RETURNS trigger LANGUAGE plpgsql AS ${sql.raw(
      `$$ BEGIN UPDATE "${schema}".probe_writes SET n = n + 1; RETURN NULL; END $$`,
    )}`.execute(db);
    const tables = await sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = ${schema} AND table_type = 'BASE TABLE' AND table_name <> 'probe_writes'`.execute(db);
    expect(tables.rows.length).toBeGreaterThan(20);
    for (const { name } of tables.rows) {
      await sql`CREATE TRIGGER probe_write AFTER INSERT OR UPDATE OR DELETE ON ${sql.id(schema, name)}
        FOR EACH ROW EXECUTE FUNCTION ${sql.id(schema, 'count_probe_write')}()`.execute(db);
    }
  }

  const rowsWritten = async (): Promise<number> => {
    const { db, schema } = cloud.context.database;
    const result = await sql<{ n: string }>`SELECT n FROM ${sql.id(schema, 'probe_writes')}`.execute(db);
    return Number(result.rows[0]?.n);
  };

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    // The infrared data set goes into the database at its first request: loaded before the write counter exists,
    // its thousands of rows do not each fire a counting trigger inside some probe (15 s of the walk).
    expect((await call(cloud, 'GET', '/infrared/brand', null)).status).toBe(200);
    await countWrites();
    userToken = await signInAside(cloud);
    providerToken = await internalToken(cloud);
    const me = (await (await call(cloud, 'GET', '/cloud/user/me', userToken)).json()) as { _id: string };
    probeOptions = { unknownId: UNKNOWN_ID, setsByKey: SETS_BY_KEY, knownValue: knownIds(me._id) };
  });
  afterAll(() => cloud.stop());

  const send = (operation: AnyOperation, request: RawRequest) =>
    sendRawRequest(cloud.url, operation, request, {
      authorization: `Bearer ${operation.private ? providerToken : userToken}`,
    });

  /** An earlier probe that succeeded may have signed the demo user out (`logout`): its token no longer works. */
  const signedOut = async (operation: AnyOperation, answer: RawAnswer) =>
    !operation.private && answer.status === 401 && (await call(cloud, 'GET', '/cloud/user/me', userToken)).status === 401;

  /**
   * What an operation's successful probes leave that would make an id known to the operations walked after it:
   * a first build under an unknown app id publishes that app (as the demo user's), so it is deleted again.
   */
  const cleanUp: Record<string, (operation: AnyOperation) => Promise<unknown>> = {
    'cloud:apps.createBuild': (operation) =>
      call(cloud, 'DELETE', `/apps/app/${dummy((operation.params as Schema).properties?.appId)}`, userToken),
  };

  /**
   * The refusal a GET answers without any bad input when this test cloud lacks what it depends on (a status
   * secret, a mail list service): a probe answering the same met the environment, not a failure on its input.
   */
  async function environmentRefusal(operation: AnyOperation): Promise<string | null> {
    if (operation.method !== 'GET') return null;
    const answer = await send(operation, plainRequest(operation, probeOptions));
    return answer.status === 503 ? answer.text : null;
  }

  it('walks every operation of every cloud service', () => {
    const services = new Set(cloudOperationList.map((operation) => operationId(operation).split('.')[0]));
    expect([...services].sort()).toEqual(
      Object.keys(cloudOperations)
        .map((service) => `cloud:${service}`)
        .sort(),
    );
  });

  it.each(cloudOperationList.map((operation) => [operationId(operation), operation] as const))('%s', async (_id, operation) => {
    const unavailable = await environmentRefusal(operation);
    const problems: string[] = [];
    const unknownId = UNKNOWN_ID_ANSWERS[operationId(operation)] ?? UNKNOWN_ID;
    // The count after one probe is the count before the next: one counting query per probe.
    let before = await rowsWritten();
    for (const probe of badInputProbes(operation, { ...probeOptions, unknownId })) {
      let answer = await send(operation, probe.request);
      if (await signedOut(operation, answer)) {
        userToken = await signInAside(cloud);
        before = await rowsWritten();
        answer = await send(operation, probe.request);
      }
      const after = await rowsWritten();
      const wrote = after !== before;
      before = after;
      if (unavailable !== null && answer.text === unavailable) continue;
      const problem =
        uniformityProblem(answer) ??
        expectationProblem(answer, probe.expected) ??
        (answer.status >= 400 && wrote ? `answered ${answer.status} but wrote rows` : null);
      if (problem) problems.push(`${probe.label}: ${problem} ${answer.text.slice(0, 300)}`);
    }
    await cleanUp[operationId(operation)]?.(operation);
    expect(problems).toEqual([]);
  });

  it('counts the rows a write makes, so a refusal that wrote would be seen', async () => {
    const me = (await (await call(cloud, 'GET', '/cloud/user/me', userToken)).json()) as { _id: string };
    const before = await rowsWritten();
    const update = await call(cloud, 'PUT', `/cloud/user/${me._id}`, userToken, { user: { firstname: 'Dana' } });
    expect(update.status).toBe(200);
    expect(await rowsWritten()).toBeGreaterThan(before);
  });
});
