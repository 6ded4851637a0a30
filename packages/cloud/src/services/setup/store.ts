import {
  HearthError,
  notFound,
  SETUP_LIMITS,
  type SetupCommandBody,
  type SetupSessionBody,
  type SetupStateValue,
} from '@hearth/contract';
import type { Selectable } from 'kysely';
import type { CloudContext } from '../../platform/context';
import { hashSecret, newId, newSecret, safeEqual } from '../../platform/tokens';
import type { SetupCommandsTable, SetupSessionsTable } from './tables';

type SessionRow = Selectable<SetupSessionsTable>;
type CommandRow = Selectable<SetupCommandsTable>;

/** Who calls: the account the session belongs to, or the hub holding the session's hub token. */
export type Actor = { kind: 'user'; userId: string } | { kind: 'hub'; token: string };

const iso = (date: Date | string) => new Date(date).toISOString();

/** A session as the wire shows it; the hub alone gets the delegation token the app handed over. */
export function toSession(row: SessionRow, actor: Actor | null): SetupSessionBody {
  const reset = row.reset as { factoryreset: boolean; name: string | null; extraProperties: Record<string, unknown> } | null;
  return {
    _id: row.id,
    id: row.id,
    sn: row.sn,
    state: row.state,
    userId: row.user_id,
    homeyId: row.hub_id,
    data: row.data,
    reset,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    expiresAt: iso(row.expires_at),
    ...(actor?.kind === 'hub' && row.delegation_token ? { delegationToken: row.delegation_token } : {}),
  };
}

export function toCommand(row: CommandRow): SetupCommandBody {
  return {
    _id: row.id,
    id: row.id,
    manager: row.manager,
    command: row.command,
    args: row.args,
    result: row.result,
    createdAt: iso(row.created_at),
    answeredAt: row.answered_at === null ? null : iso(row.answered_at),
  };
}

/** What the app asked the hub to become, as `updateSessionHomey` takes it. */
export interface ResetInput {
  factoryreset?: boolean | undefined;
  name?: string | undefined;
  token?: string | undefined;
  extraProperties?: Record<string, unknown> | undefined;
}

const conflict = (message: string) => new HearthError('conflict', message);

/** The sessions' rows and the state machine: what the routes do, once they know who calls. */
export function setupStore(context: CloudContext) {
  const { db } = context.database;

  /**
   * Moves `row` from its state to `to`, unless another call moved it meanwhile (then 409): the state is compared in
   * the update itself, so two nodes cannot both take one step.
   */
  const step = async (row: SessionRow, to: SetupStateValue, set: Partial<Record<string, unknown>> = {}) => {
    const updated = await db
      .updateTable('setup_sessions')
      .set({ ...set, state: to, updated_at: new Date(context.clock.now()) })
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw conflict('The session changed meanwhile: read it again');
    return updated;
  };

  return {
    async create(owner: { userId: string | null; hubId: string | null; sn: string | null }) {
      if (owner.userId !== null) {
        const open = await db
          .selectFrom('setup_sessions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', owner.userId)
          .where('state', '<>', 'done')
          .where('expires_at', '>', new Date(context.clock.now()))
          .executeTakeFirstOrThrow();
        if (Number(open.n) >= SETUP_LIMITS.maxOpenSessionsPerUser)
          throw conflict(`An account may have ${SETUP_LIMITS.maxOpenSessionsPerUser} setup sessions open: finish or delete one`);
      }
      const hubToken = newSecret();
      const now = new Date(context.clock.now());
      const row = await db
        .insertInto('setup_sessions')
        .values({
          id: newId(),
          user_id: owner.userId,
          hub_id: owner.hubId,
          sn: owner.sn,
          state: owner.hubId === null ? 'created' : 'homey_connected',
          hub_token_hash: hashSecret(hubToken),
          data: '{}',
          updated_at: now,
          expires_at: new Date(now.getTime() + SETUP_LIMITS.sessionLifetimeSeconds * 1000),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, hubToken };
    },

    /**
     * The session `sessionId` as `actor` may see it. An account sees only its own sessions (others' answer as unknown
     * ones do) and takes a session a hub opened that nobody has yet; a hub needs the session's token. An expired
     * session answers 410.
     */
    async load(sessionId: string, actor: Actor): Promise<SessionRow> {
      let row = await db.selectFrom('setup_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
      if (actor.kind === 'hub') {
        if (!row || !safeEqual(row.hub_token_hash, hashSecret(actor.token)))
          throw new HearthError('invalid_token', 'Invalid or expired token');
      } else if (!row || (row.user_id !== null && row.user_id !== actor.userId)) {
        throw notFound('Setup session', sessionId);
      }
      if (new Date(row.expires_at).getTime() <= context.clock.now())
        throw new HearthError('gone', 'This setup session has expired');
      if (actor.kind === 'user' && row.user_id === null) {
        row = await db
          .updateTable('setup_sessions')
          .set({ user_id: actor.userId, updated_at: new Date(context.clock.now()) })
          .where('id', '=', sessionId)
          .where('user_id', 'is', null)
          .returningAll()
          .executeTakeFirst();
        // Another account opened it first.
        if (!row) throw notFound('Setup session', sessionId);
      }
      return row;
    },

    /** Merges `data` into the shared data; `null` removes a key. */
    async updateData(row: SessionRow, data: Record<string, unknown>) {
      const merged: Record<string, unknown> = { ...row.data };
      for (const [key, value] of Object.entries(data)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      return db
        .updateTable('setup_sessions')
        .set({ data: JSON.stringify(merged), updated_at: new Date(context.clock.now()) })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async remove(sessionId: string) {
      await db.deleteFrom('setup_sessions').where('id', '=', sessionId).execute();
    },

    /** The steps `setSessionState` takes: the hub joins, the reset is reported applied (by the hub or the app). */
    async setState(row: SessionRow, actor: Actor, to: SetupStateValue, homeyId: string | undefined) {
      if (to === 'homey_connected') {
        if (actor.kind !== 'hub') throw new HearthError('forbidden', 'Only the hub joins its setup session');
        const hubId = homeyId ?? row.hub_id;
        if (!hubId) throw new HearthError('missing_parameter', 'Missing Parameter: homeyId');
        if (row.hub_id !== null && row.hub_id !== hubId) throw conflict('Another hub joined this setup session');
        // A hub that restarts (a restored backup) joins again: it is already in.
        if (row.state !== 'created') return row;
        return step(row, 'homey_connected', { hub_id: hubId });
      }
      if (to === 'done') {
        if (row.state === 'done') return row;
        if (row.state !== 'configured') throw conflict(`A setup session goes to done from configured, not from ${row.state}`);
        return step(row, 'done', { delegation_token: null });
      }
      if (to === row.state) return row;
      const how = to === 'signed_in' ? 'POST login-token' : to === 'configured' ? 'POST reset' : 'nothing';
      throw conflict(`A setup session cannot go from ${row.state} to ${to} this way (it gets there by ${how})`);
    },

    /** The account hands its delegation token to the hub: `homey_connected` → `signed_in`. */
    async signIn(row: SessionRow, token: string) {
      if (row.state !== 'homey_connected')
        throw conflict(`A setup session is signed in once its hub joined (homey_connected), not in ${row.state}`);
      return step(row, 'signed_in', { delegation_token: token });
    },

    /**
     * Claims the session's hub for the session's account in the hub registry (with the hub's claim token unless the
     * account owns it already), names it, and records what the hub is to become: `signed_in` → `configured`. With
     * `factoryreset` the hub's other users and its metadata leave its record. Done in one transaction with the step.
     */
    async configure(row: SessionRow, userId: string, input: ResetInput) {
      if (row.state !== 'signed_in')
        throw conflict(`A setup session is configured once signed in (signed_in), not in ${row.state}`);
      const hubId = row.hub_id as string;
      return db.transaction().execute(async (trx) => {
        const hub = await trx.selectFrom('hubs').selectAll().where('id', '=', hubId).forUpdate().executeTakeFirst();
        if (!hub) throw notFound('Hub', hubId);
        const now = new Date(context.clock.now());
        if (hub.owner_user_id === null) {
          if (!input.token) throw new HearthError('missing_parameter', 'Missing Parameter: token');
          if (!hub.claim_token_hash || !safeEqual(hub.claim_token_hash, hashSecret(input.token)))
            throw new HearthError('forbidden', 'The claim token of this hub is not correct');
          await trx
            .updateTable('hubs')
            .set({
              owner_user_id: userId,
              claim_token_hash: null,
              claim_code_hash: null,
              activated_at: now,
              state: 'activated',
              updated_at: now,
            })
            .where('id', '=', hubId)
            .execute();
        } else if (hub.owner_user_id !== userId) {
          throw conflict('This hub already has an owner');
        }
        if (input.name !== undefined)
          await trx.updateTable('hubs').set({ name: input.name, updated_at: now }).where('id', '=', hubId).execute();
        // The owner is never a member as well.
        let members = trx.deleteFrom('hub_users').where('hub_id', '=', hubId);
        if (!input.factoryreset) members = members.where('user_id', '=', userId);
        await members.execute();
        if (input.factoryreset) await trx.deleteFrom('hub_metadata').where('hub_id', '=', hubId).execute();
        const reset = {
          factoryreset: input.factoryreset ?? false,
          name: input.name ?? null,
          extraProperties: input.extraProperties ?? {},
        };
        const updated = await trx
          .updateTable('setup_sessions')
          .set({ state: 'configured', reset: JSON.stringify(reset), updated_at: now })
          .where('id', '=', row.id)
          .where('state', '=', 'signed_in')
          .returningAll()
          .executeTakeFirst();
        if (!updated) throw conflict('The session changed meanwhile: read it again');
        return updated;
      });
    },

    commands: (sessionId: string) =>
      db.selectFrom('setup_commands').selectAll().where('session_id', '=', sessionId).orderBy('seq').execute(),

    async addCommand(row: SessionRow, command: { manager: string; command: string; args: Record<string, unknown> }) {
      if (row.state === 'created') throw conflict('The hub has not joined this setup session yet');
      if (row.state === 'done') throw conflict('This setup session is done');
      const count = await db
        .selectFrom('setup_commands')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('session_id', '=', row.id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= SETUP_LIMITS.maxCommands)
        throw conflict(`A setup session carries at most ${SETUP_LIMITS.maxCommands} commands`);
      return db
        .insertInto('setup_commands')
        .values({
          id: newId(),
          session_id: row.id,
          manager: command.manager,
          command: command.command,
          args: JSON.stringify(command.args),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async answer(sessionId: string, commandId: string, result: unknown[]) {
      const answered = await db
        .updateTable('setup_commands')
        .set({ result: JSON.stringify(result), answered_at: new Date(context.clock.now()) })
        .where('id', '=', commandId)
        .where('session_id', '=', sessionId)
        .where('result', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (answered) return answered;
      const exists = await db
        .selectFrom('setup_commands')
        .select('id')
        .where('id', '=', commandId)
        .where('session_id', '=', sessionId)
        .executeTakeFirst();
      throw exists ? conflict('This command was answered already') : notFound('Setup command', commandId);
    },

    /** Removes sessions expired more than a day ago (until then they answer 410), with their commands. */
    async sweepExpired(graceMs = 24 * 3600 * 1000) {
      const removed = await db
        .deleteFrom('setup_sessions')
        .where('expires_at', '<', new Date(context.clock.now() - graceMs))
        .returning('id')
        .execute();
      return removed.length;
    },
  };
}

export type SetupStore = ReturnType<typeof setupStore>;
