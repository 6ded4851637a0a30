import { type AnyOperation, operationId, scopeCovers } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { hubOperationList, prepare, sendRaw } from '../testing/operations';

/**
 * Every operation the hub declares × {no token, expired token, readonly scope, wrong scope, right scope}:
 * only the authentication / authorisation outcome is asserted. Bodies are sent with a content type no route
 * accepts, so a request that passes the checks stops at 415 before any handler runs (and nothing reboots).
 */
const AUTH_ERRORS = ['missing_token', 'invalid_token', 'missing_scopes', 'private_operation'];

/** `homey.zone` → `homey.zone.readonly`, `homey.device.control` → `homey.device.readonly`. */
const readonlyOf = (scope: string) => `${scope.split('.').slice(0, 2).join('.')}.readonly`;
const wrongFor = (scope: string) => (scope.startsWith('homey.zone') ? 'homey.alarm' : 'homey.zone');

describe('scopes of every hub operation', () => {
  let t: TestHub;
  const tokens = new Map<string, string>();
  let expired: string;

  beforeAll(async () => {
    t = await startTestHub();
    expired = t.sessionFor('owner', null, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
  });
  afterAll(() => t.stop());

  /** An owner session holding exactly `scopes` (the owner's role caps nothing). */
  const tokenWith = (scopes: string[]) => {
    const key = scopes.join(' ');
    if (!tokens.has(key)) tokens.set(key, t.sessionFor('owner', scopes));
    return tokens.get(key) as string;
  };

  async function send(operation: AnyOperation, token: string | null): Promise<{ status: number; error?: string }> {
    const prepared = prepare(operation);
    const body = prepared.body === undefined ? undefined : JSON.stringify(prepared.body);
    const contentType = body === undefined ? undefined : 'application/x-hearth-probe';
    // A call that is still running after 5 s (status 0) passed its checks: refusals answer at once.
    const answer = await sendRaw(t, operation, { path: prepared.path, query: prepared.query, body, contentType }, token);
    return { status: answer.status, error: (answer.body as { error?: string } | undefined)?.error };
  }

  const passed = (answer: { status: number; error?: string }) =>
    answer.status !== 401 && !AUTH_ERRORS.includes(answer.error ?? '');

  it('covers the operations of this issue', () => {
    const ids = hubOperationList.map(operationId);
    for (const id of ['hub:zones.createZone', 'hub:users.createPersonalAccessToken', 'hub:sessions.getSessionMe']) {
      expect(ids).toContain(id);
    }
  });

  it.each(hubOperationList.map((operation) => [operationId(operation), operation] as const))('%s', async (_id, operation) => {
    const needsAuth = operation.auth || operation.private;
    const anonymous = await send(operation, null);
    const stale = await send(operation, expired);
    if (needsAuth) {
      expect(anonymous.status, 'no token').toBe(401);
      expect(stale, 'expired token').toMatchObject({ status: 401, error: 'invalid_token' });
    } else {
      expect(passed(anonymous), `no token: ${JSON.stringify(anonymous)}`).toBe(true);
      // A call that needs no session ignores a stale one (a client signing in again still sends its old token).
      expect(passed(stale), `expired token: ${JSON.stringify(stale)}`).toBe(true);
    }

    const scope = operation.scope;
    const readonly = scope === null ? 'homey.zone.readonly' : readonlyOf(scope);
    const wrong = scope === null ? 'homey.alarm' : wrongFor(scope);
    const right = scope === null ? 'homey.zone.readonly' : scope;
    const answers = {
      readonly: await send(operation, tokenWith([readonly])),
      wrong: await send(operation, tokenWith([wrong])),
      right: await send(operation, tokenWith([right])),
    };
    if (!needsAuth) {
      for (const [name, answer] of Object.entries(answers)) {
        expect(passed(answer), `${name} scope on a call needing no session: ${JSON.stringify(answer)}`).toBe(true);
      }
      return;
    }

    if (operation.private) {
      for (const [name, answer] of Object.entries(answers)) {
        expect(answer, `${name} scope on a private operation`).toMatchObject({ status: 403, error: 'private_operation' });
      }
      return;
    }
    expect(passed(answers.right), `right scope ${right}: ${JSON.stringify(answers.right)}`).toBe(true);
    if (scope === null) {
      expect(passed(answers.readonly), `needs no scope: ${JSON.stringify(answers.readonly)}`).toBe(true);
      expect(passed(answers.wrong), `needs no scope: ${JSON.stringify(answers.wrong)}`).toBe(true);
      return;
    }
    expect(answers.wrong, `wrong scope ${wrong}`).toMatchObject({ status: 403, error: 'missing_scopes' });
    if (scopeCovers(readonly, scope)) {
      expect(passed(answers.readonly), `readonly scope ${readonly}: ${JSON.stringify(answers.readonly)}`).toBe(true);
    } else {
      expect(answers.readonly, `readonly scope ${readonly}`).toMatchObject({ status: 403, error: 'missing_scopes' });
    }
  });
});
