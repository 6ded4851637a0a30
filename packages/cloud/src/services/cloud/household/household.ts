import { cloudOperations, HearthError, INVITE_LIFETIME_DAYS, invalidParameter, notFound } from '@hearth/contract';
import { implement, type RatePolicy } from '@hearth/contract/fastify';
import { normaliseClaimCode } from '@hearth/contract/provider';
import { requireUser } from '../../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../../platform/context';
import { pick } from '../../../platform/pick';
import { hashSecret, newId, newSecret } from '../../../platform/tokens';
import { pageLink } from '../account/mail';
import { normaliseEmail } from '../accounts';
import { hubRecordFor, userRow } from '../directory';
import { avatarRecord } from '../records';
import type { HubsRow } from '../rows';
import type { HubInvitesTable } from '../tables';
import { CLAIM_CODE_LIFETIME_MS, ClaimThrottle, newClaimCode } from './claim-codes';

const ops = pick(cloudOperations.cloud, [
  'claimHomey',
  'createHomeyClaimCode',
  'transferHomey',
  'getHomeyUsers',
  'createHomeyInvite',
  'getHomeyInvites',
  'deleteHomeyInvite',
  'previewInvite',
]);

const HOUR = 3600;
/** Invitations one account may send: each is a mail to an address of their choosing. */
const INVITES: RatePolicy = { name: 'hub-invite', quota: 30, windowSeconds: HOUR };

type Role = 'owner' | 'manager' | 'user' | 'guest';
type InviteRow = { id: string; hub_id: string; email: string; role: HubInvitesTable['role']; inviter_id: string };

const inviteRecord = (row: InviteRow & { created_at: Date; expires_at: Date }) => ({
  _id: row.id,
  id: row.id,
  homeyId: row.hub_id,
  email: row.email,
  role: row.role,
  inviterId: row.inviter_id,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
});

/** Unverified accounts may sign in and look around, but not take hubs: a hub is tied to a reachable person. */
export async function requireVerified(context: CloudContext, userId: string): Promise<void> {
  const user = await userRow(context.database.db, userId);
  if (!user.email_verified_at)
    throw new HearthError('forbidden', 'Verify your e-mail address first: open the link we mailed you');
}

/** Claiming hubs by their printed code, handing them over, and their household: members and invitations. */
export function householdImplementations(context: CloudContext) {
  const { db } = context.database;
  const { publicUrl } = context.config;
  const claimThrottle = new ClaimThrottle(context.limits);

  /** The hub and the caller's role in it; hubs the caller has no part in answer 404. */
  async function roleIn(principal: CloudPrincipal, hubId: string): Promise<{ hub: HubsRow; role: Role }> {
    const userId = requireUser(principal);
    const hub = await db.selectFrom('hubs').selectAll().where('id', '=', hubId).executeTakeFirst();
    if (hub && hub.owner_user_id === userId) return { hub, role: 'owner' };
    const member = hub
      ? await db
          .selectFrom('hub_users')
          .select('role')
          .where('hub_id', '=', hubId)
          .where('user_id', '=', userId)
          .executeTakeFirst()
      : undefined;
    if (!hub || !member) throw notFound('Hub', hubId);
    return { hub, role: member.role as Role };
  }

  async function managing(principal: CloudPrincipal, hubId: string) {
    const access = await roleIn(principal, hubId);
    if (access.role !== 'owner' && access.role !== 'manager')
      throw new HearthError('forbidden', 'Only the owner and managers of this hub may do that');
    return access;
  }

  return implement<typeof ops, CloudPrincipal>(ops, {
    claimHomey: async ({ body, principal, request }) => {
      const userId = requireUser(principal);
      await requireVerified(context, userId);
      const short = normaliseClaimCode(body.code);
      const claimed = await claimThrottle.attempt(userId, request.ip, async () => {
        const now = new Date(context.clock.now());
        // The short code the hub shows, or the hub's full claim token (what the ecosystem's setup hands an app).
        const match = short
          ? await db
              .selectFrom('hubs')
              .selectAll()
              .where('claim_code_hash', '=', hashSecret(short))
              .where('owner_user_id', 'is', null)
              .executeTakeFirst()
          : await db
              .selectFrom('hubs')
              .selectAll()
              .where('claim_token_hash', '=', hashSecret(body.code.trim()))
              .where('owner_user_id', 'is', null)
              .executeTakeFirst();
        if (!match)
          throw new HearthError(
            'claim_code_invalid',
            'This code does not claim any hub. Check it against the one the hub shows now.',
          );
        if (short && (!match.claim_code_expires_at || match.claim_code_expires_at <= now))
          throw new HearthError('claim_code_expired', 'This code has expired. Enter the new one the hub shows now.');
        // The owner check again in the update: of two claims at once, one wins and the other finds no hub.
        const won = await db
          .updateTable('hubs')
          .set({
            owner_user_id: userId,
            claim_token_hash: null,
            claim_code_hash: null,
            claim_code_expires_at: null,
            activated_at: now,
            state: 'activated',
            updated_at: now,
          })
          .where('id', '=', match.id)
          .where('owner_user_id', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (!won)
          throw new HearthError(
            'claim_code_invalid',
            'This code does not claim any hub. Check it against the one the hub shows now.',
          );
        return won;
      });
      await db.deleteFrom('hub_users').where('hub_id', '=', claimed.id).where('user_id', '=', userId).execute();
      return hubRecordFor(db, claimed, userId);
    },

    createHomeyClaimCode: async ({ params }) => {
      const code = newClaimCode();
      const expiresAt = new Date(context.clock.now() + CLAIM_CODE_LIFETIME_MS);
      const hub = await db
        .updateTable('hubs')
        .set({ claim_code_hash: hashSecret(code), claim_code_expires_at: expiresAt })
        .where('id', '=', params.id)
        .where('owner_user_id', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!hub) {
        const exists = await db.selectFrom('hubs').select('id').where('id', '=', params.id).executeTakeFirst();
        if (!exists) throw notFound('Hub', params.id);
        throw new HearthError('conflict', 'This hub has an owner: it has no claim code');
      }
      return { code, expiresAt: expiresAt.toISOString() };
    },

    transferHomey: async ({ params, body, principal }) => {
      const { hub, role } = await roleIn(principal, params.id);
      if (role !== 'owner') throw new HearthError('forbidden', 'Only the owner of this hub may hand it over');
      const from = hub.owner_user_id as string;
      if (body.userId === from) throw invalidParameter('userId', 'You already own this hub');
      const updated = await db.transaction().execute(async (trx) => {
        const removed = await trx
          .deleteFrom('hub_users')
          .where('hub_id', '=', hub.id)
          .where('user_id', '=', body.userId)
          .executeTakeFirst();
        if (Number(removed.numDeletedRows) !== 1)
          throw invalidParameter('userId', 'The new owner must be a member of this hub’s household');
        await trx.insertInto('hub_users').values({ hub_id: hub.id, user_id: from, role: 'manager' }).execute();
        return trx
          .updateTable('hubs')
          .set({ owner_user_id: body.userId, updated_at: new Date(context.clock.now()) })
          .where('id', '=', hub.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return hubRecordFor(db, updated, principal.userId);
    },

    getHomeyUsers: async ({ params, principal }) => {
      const { hub, role } = await roleIn(principal, params.homeyId);
      const members = await db
        .selectFrom('hub_users')
        .select(['user_id', 'role'])
        .where('hub_id', '=', hub.id)
        .orderBy('created_at')
        .execute();
      const people = [...(hub.owner_user_id ? [{ user_id: hub.owner_user_id, role: 'owner' }] : []), ...members];
      const users = await db
        .selectFrom('users')
        .select(['id', 'firstname', 'lastname', 'email', 'avatar_type', 'updated_at'])
        .where(
          'id',
          'in',
          people.map((p) => p.user_id),
        )
        .execute();
      const byId = new Map(users.map((u) => [u.id, u]));
      const seesEmail = role === 'owner' || role === 'manager';
      return people.flatMap(({ user_id, role: memberRole }) => {
        const user = byId.get(user_id);
        if (!user) return [];
        const avatar = avatarRecord(publicUrl, user);
        return [
          {
            _id: user.id,
            role: memberRole,
            firstname: user.firstname,
            lastname: user.lastname,
            fullname: `${user.firstname} ${user.lastname}`.trim(),
            ...(seesEmail ? { email: user.email } : {}),
            ...(avatar ? { avatar } : {}),
          },
        ];
      });
    },

    createHomeyInvite: async ({ params, body, principal, request, reply }) => {
      const { hub, role } = await managing(principal, params.homeyId);
      if (role !== 'owner' && body.role === 'manager') throw new HearthError('forbidden', 'Only the owner may invite managers');
      const inviter = await userRow(db, principal.userId as string);
      await context.rateLimiter.count(request, INVITES, inviter.id);
      const email = normaliseEmail(body.email);
      if (email === inviter.email) throw invalidParameter('email', 'You are already in this household');
      const token = newSecret();
      const now = context.clock.now();
      const row = await db
        .insertInto('hub_invites')
        .values({
          id: newId(),
          hub_id: hub.id,
          inviter_id: inviter.id,
          email,
          role: body.role,
          token_hash: hashSecret(token),
          expires_at: new Date(now + INVITE_LIFETIME_DAYS * 24 * HOUR * 1000),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const inviterName = `${inviter.firstname} ${inviter.lastname}`.trim() || inviter.email;
      await context.mail.send({
        to: email,
        subject: `${inviterName} invites you to ${hub.name} on Hearth`,
        text: [
          'Hello,',
          '',
          `${inviterName} invites you to join the household of their Hearth hub “${hub.name}” as ${body.role === 'manager' ? 'a manager' : `a ${body.role}`}.`,
          `To accept, open this link within ${INVITE_LIFETIME_DAYS} days and sign in, or create an account (it works once):`,
          '',
          pageLink(context, 'invite', token),
          '',
          'If you do not know them, ignore this message.',
        ].join('\n'),
      });
      reply.header('location', `/cloud/homey/${hub.id}/invite/${row.id}`);
      return inviteRecord(row);
    },

    getHomeyInvites: async ({ params, principal }) => {
      const { hub } = await managing(principal, params.homeyId);
      const rows = await db
        .selectFrom('hub_invites')
        .selectAll()
        .where('hub_id', '=', hub.id)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', new Date(context.clock.now()))
        .orderBy('created_at')
        .execute();
      return rows.map(inviteRecord);
    },

    deleteHomeyInvite: async ({ params, principal }) => {
      const { hub } = await managing(principal, params.homeyId);
      const removed = await db
        .deleteFrom('hub_invites')
        .where('id', '=', params.inviteId)
        .where('hub_id', '=', hub.id)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw notFound('Invite', params.inviteId);
    },

    // No sign-in needed: whoever holds the mailed link is the person it was sent to, and may not have an account yet.
    previewInvite: async ({ body }) => {
      const invite = await openInvite(context, body.token);
      const [hub, inviter] = await Promise.all([
        db.selectFrom('hubs').select(['id', 'name']).where('id', '=', invite.hub_id).executeTakeFirstOrThrow(),
        userRow(db, invite.inviter_id),
      ]);
      return {
        inviterId: inviter.id,
        inviterName: `${inviter.firstname} ${inviter.lastname}`.trim() || inviter.email,
        homeyId: hub.id,
        homeyName: hub.name,
        role: invite.role,
        email: invite.email,
        expiresAt: invite.expires_at.toISOString(),
      };
    },
  });
}

/** The open invitation a link's token names; a used, withdrawn or expired one answers 410. */
export async function openInvite(context: CloudContext, token: string) {
  const invite = await context.database.db
    .selectFrom('hub_invites')
    .selectAll()
    .where('token_hash', '=', hashSecret(token))
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', new Date(context.clock.now()))
    .executeTakeFirst();
  if (!invite) throw new HearthError('gone', 'This invitation is invalid, used, withdrawn or expired. Ask for a new one.');
  return invite;
}

/**
 * Accepts the invitation `token` from `inviterId` for `userId`: they join the hub's household with the invited
 * role, once. Answers the hub and role.
 */
export async function acceptHubInvite(context: CloudContext, userId: string, inviterId: string, token: string) {
  const { db } = context.database;
  const invite = await openInvite(context, token);
  if (invite.inviter_id !== inviterId) throw new HearthError('gone', 'This invitation is not from that person');
  return db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable('hub_invites')
      .set({ accepted_at: new Date(context.clock.now()), accepted_by: userId })
      .where('id', '=', invite.id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new HearthError('gone', 'This invitation was used meanwhile');
    const hub = await trx.selectFrom('hubs').select(['owner_user_id']).where('id', '=', invite.hub_id).executeTakeFirstOrThrow();
    if (hub.owner_user_id === userId) throw new HearthError('conflict', 'You own this hub already');
    await trx
      .insertInto('hub_users')
      .values({ hub_id: invite.hub_id, user_id: userId, role: invite.role })
      .onConflict((oc) => oc.columns(['hub_id', 'user_id']).doUpdateSet({ role: invite.role }))
      .execute();
    return { homeyId: invite.hub_id, role: invite.role };
  });
}
