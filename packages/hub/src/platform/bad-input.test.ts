import { type AnyOperation, operationId } from '@hearth/contract';
import {
  BEFORE_ROUTING,
  badInputProbes,
  type Expected,
  expectationProblem,
  type Probe,
  plainRequest,
  uniformityProblem,
} from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { hubOperationList, sendRaw } from '../testing/operations';

/**
 * Every operation the hub declares, called by the owner (whose token passes every scope) with bad input over
 * real HTTP (the probes of `@hearth/contract/testing`: wrong types, bodies that are not JSON objects, missing
 * fields, NUL and unpaired surrogates, numbers that overflow, values nested ten thousand levels, free-form values
 * over their limits, oversized bodies, odd path and query values, unknown ids). Whatever the input, the hub
 * answers below 500, every refusal has the uniform error body with a catalogued code, and a refusal changes
 * nothing stored. Where the declared schema and the input rules alone decide the outcome, that outcome is asserted.
 */

/** Operations whose `:id` is a key they set, not one they look up: an unknown key is created or already unset. */
const SETS_BY_KEY = [
  'hub:users.updateUserMeProperties',
  'hub:users.deleteUserMeProperties',
  'hub:dashboards.setWidgetStoreState',
];

/**
 * Operations that are nothing without the hub's cloud: this test hub has none, so they answer 503 before reading
 * anything stored or changing anything, and their plain call is as safe to send as a GET's.
 */
const NEEDS_THE_CLOUD = [
  'hub:backup.restoreBackup',
  'hub:flow.importSharedFlow',
  'hub:logic.registerCloudWebhook',
  'hub:cloud.receiveWebhook',
];

/** No session of this hub is internal: a private operation refuses the owner before it reads any input. */
const PRIVATE: Expected = { status: 403, errors: ['private_operation'] };

function probesFor(operation: AnyOperation): Probe[] {
  const probes = badInputProbes(operation, { unknownId: { status: 404, errors: ['not_found'] }, setsByKey: SETS_BY_KEY });
  if (!operation.private) return probes;
  return probes.map((probe) =>
    probe.expected && BEFORE_ROUTING.includes(probe.expected) ? probe : { ...probe, expected: PRIVATE },
  );
}

describe('bad input to every hub operation', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  /**
   * Rows written so far on the hub's one connection, and when the token was last used: a refusal must not write,
   * but the token's `lastUsed` (refreshed at most once a minute, whatever the call) is the caller's bookkeeping.
   */
  const stored = () => ({
    writes: t.hub.context.db.prepare('SELECT total_changes()').pluck().get() as number,
    lastUsed: t.hub.context.sessions.findByToken(t.token)?.lastUsed,
  });
  const wroteBetween = (before: ReturnType<typeof stored>, after: ReturnType<typeof stored>) =>
    after.writes - before.writes > (after.lastUsed === before.lastUsed ? 0 : 1);

  /**
   * The refusal a GET answers without any bad input when this test hub lacks what it depends on (the cloud, a
   * location): a probe answering the same 503 met the environment, not a failure on its input. Only GETs (and the
   * operations that need the cloud) are sent plain, as they change nothing.
   */
  async function environmentRefusal(operation: AnyOperation): Promise<string | null> {
    if (operation.method !== 'GET' && !NEEDS_THE_CLOUD.includes(operationId(operation))) return null;
    const answer = await sendRaw(t, operation, plainRequest(operation), t.token);
    return answer.status === 503 ? answer.text : null;
  }

  it.each(hubOperationList.map((operation) => [operationId(operation), operation] as const))('%s', async (_id, operation) => {
    const unavailable = await environmentRefusal(operation);
    const problems: string[] = [];
    for (const probe of probesFor(operation)) {
      const before = stored();
      const answer = await sendRaw(t, operation, probe.request, t.token);
      if (unavailable !== null && answer.text === unavailable) continue;
      const problem =
        uniformityProblem(answer) ??
        expectationProblem(answer, probe.expected) ??
        (answer.status >= 400 && wroteBetween(before, stored()) ? `answered ${answer.status} but changed what is stored` : null);
      if (problem) problems.push(`${probe.label}: ${problem} ${answer.text.slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
  });

  it("leaves the owner's token working", async () => {
    expect((await t.call('GET', '/users/user/me')).status).toBe(200);
  });
});
