import { cloudOperations, HearthError, hasScope, intersectScopes, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { forgetCachedTokens, requireSelf, requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import { newId } from '../../platform/tokens';
import { deleteAccount } from './account/deletion';
import { sendNotice } from './account/mail';
import { checkNewPassword } from './account/password-policy';
import { hashPassword, normaliseEmail } from './accounts';
import { currentUsers, fullUser, type UserRecord, userRow } from './directory';
import { acceptHubInvite } from './household/household';
import { type OAuth, splitScopes } from './oauth';
import { requestPasswordReset } from './password-reset';
import { addressRecord, avatarRecord, deviceRecord, subscriptionRecord } from './records';

const ops = cloudOperations.cloud;
const userOps = pick(ops, [
  'forgotPassword',
  'createUser',
  'getUser',
  'updateUser',
  'deleteUser',
  'createUserDevice',
  'updateUserDevice',
  'deleteUserDevice',
  'getUserAddresses',
  'addUserAddress',
  'updateUserAddress',
  'deleteUserAddress',
  'updateUserSubscription',
  'deleteUserSubscription',
  'addRoleAppDeveloperTrusted',
  'removeRoleAppDeveloperTrusted',
  'addRoleCertifiedInstaller',
  'getAuthenticatedUser',
  'getAcceptedInvites',
  'getPersonalAccessTokenApps',
  'deletePersonalAccessTokenApps',
  'updateAuthenticatedUserPassword',
  'getUserProfile',
  'getUserSessions',
  'deleteUserSession',
  'acceptInvite',
]);

const SUBSCRIPTION_TYPES = ['homey_plus', 'homey_premium', 'homey_developer', 'homey_backups'];

const SCOPE = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/i;
const ADDITIONAL_SCOPES_MAX = 32;

/**
 * `GET /user/me?additionalScopes=a,b`: a client asks about scopes beyond the ones it signed in with. The answer
 * says which of them this sign-in covers (`intersectedScopes`, matched as hubs match them, so a narrower granted
 * scope is named too) and which it lacks (`missingScopes`: to get them, sign in again asking for them). It never
 * widens the session.
 */
function scopeReport(granted: readonly string[] | null, additionalScopes: string) {
  const requested = [...new Set(splitScopes(additionalScopes))];
  if (requested.length > ADDITIONAL_SCOPES_MAX)
    throw invalidParameter('additionalScopes', `At most ${ADDITIONAL_SCOPES_MAX} scopes`);
  const bad = requested.find((scope) => scope.length > 100 || !SCOPE.test(scope));
  if (bad !== undefined)
    throw invalidParameter('additionalScopes', `Not a scope: ${JSON.stringify(bad.slice(0, 100))}. Scopes are comma-joined`);
  return {
    intersectedScopes: granted === null ? requested : intersectScopes(requested, granted),
    missingScopes: requested.filter((scope) => !hasScope(granted, scope)),
  };
}

/** Accounts: the user record, devices, addresses, subscriptions, roles, password and sessions. */
export function userImplementations(context: CloudContext, oauth: OAuth) {
  const { db } = context.database;
  const publicUrl = context.config.publicUrl;
  const full = (userId: string) => fullUser(db, publicUrl, userId);
  const current = currentUsers(db, publicUrl);

  async function emailTaken(email: string, exceptUserId?: string) {
    let query = db.selectFrom('users').select('id').where('email', '=', normaliseEmail(email));
    if (exceptUserId) query = query.where('id', '!=', exceptUserId);
    return Boolean(await query.executeTakeFirst());
  }

  async function setRole(userId: string, role: string, present: boolean) {
    const user = await userRow(db, userId);
    const roles = new Set(user.role_ids);
    if (present) roles.add(role);
    else roles.delete(role);
    await db
      .updateTable('users')
      .set({ role_ids: JSON.stringify([...roles]), updated_at: new Date(context.clock.now()) })
      .where('id', '=', userId)
      .execute();
    return full(userId);
  }

  /** Live sign-ins of a user, one per token family. */
  async function sessionsOf(userId: string, principal: CloudPrincipal) {
    const rows = await db
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
      .select([
        't.family_id',
        't.client_id',
        'c.name',
        't.scopes',
        't.created_at',
        't.user_agent',
        't.ip',
        't.refresh_expires_at',
        't.access_expires_at',
      ])
      .where('t.user_id', '=', userId)
      .where('t.revoked_at', 'is', null)
      .orderBy('t.created_at')
      .execute();
    const now = context.clock.now();
    const families = new Map<string, (typeof rows)[number] & { firstAt: Date }>();
    for (const row of rows) {
      const alive = Math.max(row.access_expires_at.getTime(), row.refresh_expires_at?.getTime() ?? 0) > now;
      if (!alive) continue;
      const first = families.get(row.family_id)?.firstAt ?? row.created_at;
      families.set(row.family_id, { ...row, firstAt: first });
    }
    return [...families.values()].map((f) => ({
      _id: f.family_id,
      id: f.family_id,
      clientId: f.client_id,
      clientName: f.name,
      scopes: f.scopes ?? [],
      createdAt: f.firstAt.toISOString(),
      lastUsedAt: f.created_at.toISOString(),
      ...(f.user_agent ? { userAgent: f.user_agent } : {}),
      ...(f.ip ? { ip: f.ip } : {}),
      current: f.family_id === principal.familyId,
    }));
  }

  async function ownedRow(table: 'user_devices' | 'user_addresses', userId: string, id: string, what: string) {
    const row = await db
      .selectFrom(table as 'user_devices')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound(what, id);
  }

  return implement<typeof userOps, CloudPrincipal>(userOps, {
    forgotPassword: async ({ body }) => {
      await requestPasswordReset(context, body.email);
    },

    createUser: async ({ body, query, reply }) => {
      const input = body.user;
      if (!input.email) throw new HearthError('missing_parameter', 'Missing Parameter: user.email');
      if (!input.password) throw new HearthError('missing_parameter', 'Missing Parameter: user.password');
      if (await emailTaken(input.email)) throw new HearthError('conflict', 'An account with this e-mail address already exists');
      const id = newId();
      await db
        .insertInto('users')
        .values({
          id,
          email: normaliseEmail(input.email),
          password_hash: await hashPassword(input.password),
          firstname: input.firstname ?? '',
          lastname: input.lastname ?? '',
          language: input.language ?? 'en',
          role_ids: '[]',
          // The platform's own services vouch for the address of an account they create.
          email_verified_at: new Date(context.clock.now()),
          updated_at: new Date(context.clock.now()),
        })
        .execute();
      if (query.newsletter)
        await db
          .insertInto('mailing_list_members')
          .values({ list_id: 'newsletter', user_id: id, tags: '[]', updated_at: new Date(context.clock.now()) })
          .execute();
      reply.header('location', `/cloud/user/${id}`);
      return full(id);
    },

    getUser: async ({ params, principal }) => {
      requireSelf(principal, params.id);
      return full(params.id);
    },

    updateUser: async ({ params, body, principal }) => {
      requireSelf(principal, params.id);
      const input = body.user;
      if (input.password !== undefined)
        throw invalidParameter('user.password', 'Change the password with POST /cloud/user/me/password');
      if (input.email !== undefined && !principal.internal)
        throw invalidParameter(
          'user.email',
          'Change the e-mail address with POST /cloud/user/me/email: the new one is verified first',
        );
      await userRow(db, params.id);
      if (input.email && (await emailTaken(input.email, params.id)))
        throw new HearthError('conflict', 'An account with this e-mail address already exists');
      await db
        .updateTable('users')
        .set({
          ...(input.email !== undefined ? { email: normaliseEmail(input.email) } : {}),
          ...(input.firstname !== undefined ? { firstname: input.firstname } : {}),
          ...(input.lastname !== undefined ? { lastname: input.lastname } : {}),
          ...(input.language !== undefined ? { language: input.language } : {}),
          updated_at: new Date(context.clock.now()),
        })
        .where('id', '=', params.id)
        .execute();
      return full(params.id);
    },

    deleteUser: async ({ params, body, principal, request }) => {
      requireSelf(principal, params.id);
      await deleteAccount(context, oauth, params.id, principal.internal ? null : { ...body, ip: request.ip });
    },

    createUserDevice: async ({ params, body, principal }) => {
      requireSelf(principal, params.userId);
      await userRow(db, params.userId);
      const input = body.device;
      if (!input.name) throw new HearthError('missing_parameter', 'Missing Parameter: device.name');
      if (!input.platform) throw new HearthError('missing_parameter', 'Missing Parameter: device.platform');
      const row = await db
        .insertInto('user_devices')
        .values({
          id: newId(),
          user_id: params.userId,
          name: input.name,
          platform: input.platform,
          token: input.token ?? null,
          public_key: input.publicKey ?? null,
          app_version: input.appVersion ?? null,
          os_version: input.osVersion ?? null,
          devmode: input.devmode ?? false,
          updated_at: new Date(context.clock.now()),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return deviceRecord(row);
    },

    updateUserDevice: async ({ params, body, principal }) => {
      requireSelf(principal, params.userId);
      await ownedRow('user_devices', params.userId, params.deviceId, 'Device');
      const input = body.device;
      const row = await db
        .updateTable('user_devices')
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.platform !== undefined ? { platform: input.platform } : {}),
          ...(input.token !== undefined ? { token: input.token } : {}),
          ...(input.publicKey !== undefined ? { public_key: input.publicKey } : {}),
          ...(input.appVersion !== undefined ? { app_version: input.appVersion } : {}),
          ...(input.osVersion !== undefined ? { os_version: input.osVersion } : {}),
          ...(input.devmode !== undefined ? { devmode: input.devmode } : {}),
          updated_at: new Date(context.clock.now()),
        })
        .where('id', '=', params.deviceId)
        .where('user_id', '=', params.userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return deviceRecord(row);
    },

    deleteUserDevice: async ({ params, principal }) => {
      requireSelf(principal, params.userId);
      await ownedRow('user_devices', params.userId, params.deviceId, 'Device');
      await db.deleteFrom('user_devices').where('id', '=', params.deviceId).where('user_id', '=', params.userId).execute();
    },

    getUserAddresses: async ({ params, principal }) => {
      requireSelf(principal, params.userId);
      await userRow(db, params.userId);
      const rows = await db
        .selectFrom('user_addresses')
        .selectAll()
        .where('user_id', '=', params.userId)
        .orderBy('created_at')
        .execute();
      return rows.map(addressRecord);
    },

    addUserAddress: async ({ params, body, principal }) => {
      requireSelf(principal, params.userId);
      await userRow(db, params.userId);
      const row = await db
        .insertInto('user_addresses')
        .values({ id: newId(), user_id: params.userId, ...body.address, updated_at: new Date(context.clock.now()) })
        .returningAll()
        .executeTakeFirstOrThrow();
      return addressRecord(row);
    },

    updateUserAddress: async ({ params, body, principal }) => {
      requireSelf(principal, params.userId);
      await ownedRow('user_addresses', params.userId, params.addressId, 'Address');
      const row = await db
        .updateTable('user_addresses')
        .set({ ...body.address, updated_at: new Date(context.clock.now()) })
        .where('id', '=', params.addressId)
        .where('user_id', '=', params.userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return addressRecord(row);
    },

    deleteUserAddress: async ({ params, principal }) => {
      requireSelf(principal, params.userId);
      await ownedRow('user_addresses', params.userId, params.addressId, 'Address');
      await db.deleteFrom('user_addresses').where('id', '=', params.addressId).where('user_id', '=', params.userId).execute();
    },

    updateUserSubscription: async ({ params, body }) => {
      await userRow(db, params.userId);
      const input = body.subscription;
      const existing = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('id', '=', params.subscriptionId)
        .executeTakeFirst();
      if (existing && existing.user_id !== params.userId)
        throw new HearthError('conflict', 'This subscription belongs to another account');
      const type = input.type ?? existing?.type ?? SUBSCRIPTION_TYPES.find((t) => params.subscriptionId.startsWith(`${t}_`));
      if (!type) throw new HearthError('missing_parameter', 'Missing Parameter: subscription.type');
      const hubId = input.homeyId === undefined ? (existing?.hub_id ?? null) : input.homeyId;
      if (hubId && !(await db.selectFrom('hubs').select('id').where('id', '=', hubId).executeTakeFirst()))
        throw invalidParameter('subscription.homeyId', `No Homey with id ${hubId}`);
      const values = {
        type,
        status: input.status ?? existing?.status ?? 'active',
        quantity: input.quantity ?? existing?.quantity ?? 1,
        hub_id: hubId,
        started_at: input.startedAt ?? existing?.started_at ?? new Date(context.clock.now()),
        expires_at: input.expiresAt === undefined ? (existing?.expires_at ?? null) : input.expiresAt,
        updated_at: new Date(context.clock.now()),
      };
      const row = existing
        ? await db.updateTable('subscriptions').set(values).where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow()
        : await db
            .insertInto('subscriptions')
            .values({ id: params.subscriptionId, user_id: params.userId, data: '{}', ...values })
            .returningAll()
            .executeTakeFirstOrThrow();
      return subscriptionRecord(row);
    },

    deleteUserSubscription: async ({ params }) => {
      const result = await db
        .deleteFrom('subscriptions')
        .where('id', '=', params.subscriptionId)
        .where('user_id', '=', params.userId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('Subscription', params.subscriptionId);
    },

    addRoleAppDeveloperTrusted: ({ params }) => setRole(params.userId, 'app_developer_trusted', true),
    removeRoleAppDeveloperTrusted: ({ params }) => setRole(params.userId, 'app_developer_trusted', false),
    addRoleCertifiedInstaller: ({ params }) => setRole(params.userId, 'installer', true),

    getAuthenticatedUser: async ({ principal, query }) => {
      const { json } = await current(requireUser(principal));
      if (query.additionalScopes === undefined || query.additionalScopes === '') return json;
      const report = scopeReport(principal.scopes, query.additionalScopes);
      return { ...(JSON.parse(json.text) as UserRecord), ...report };
    },

    getAcceptedInvites: async ({ principal }) => {
      const userId = requireUser(principal);
      const rows = await db
        .selectFrom('accepted_invites')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('accepted_at')
        .execute();
      return rows.map((r) => ({ inviterId: r.inviter_id, acceptedAt: r.accepted_at.toISOString() }));
    },

    getPersonalAccessTokenApps: async ({ principal }) => {
      const userId = requireUser(principal);
      const sessions = await sessionsOf(userId, principal);
      const apps = new Map<string, { _id: string; id: string; name: string; sessions: number }>();
      for (const s of sessions) {
        if (s.current) continue;
        const app = apps.get(s.clientId) ?? { _id: s.clientId, id: s.clientId, name: s.clientName, sessions: 0 };
        app.sessions += 1;
        apps.set(s.clientId, app);
      }
      return [...apps.values()];
    },

    deletePersonalAccessTokenApps: async ({ principal }) => {
      const userId = requireUser(principal);
      await db
        .updateTable('oauth_tokens')
        .set({ revoked_at: new Date(context.clock.now()) })
        .where('user_id', '=', userId)
        .where('family_id', '!=', principal.familyId)
        .where('revoked_at', 'is', null)
        .execute();
      forgetCachedTokens(context.database);
    },

    updateAuthenticatedUserPassword: async ({ body, principal, request, reply }) => {
      const userId = requireUser(principal);
      const user = await userRow(db, userId);
      checkNewPassword(body.password, [user.email, user.firstname, user.lastname]);
      const ok = await oauth.signIn.check(user.email, body.old_password, request.ip);
      if (!ok) throw new HearthError('invalid_credentials', 'The old password is not correct');
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: await hashPassword(body.password), updated_at: new Date(context.clock.now()) })
          .where('id', '=', userId)
          .execute();
        // Every other sign-in ends; this one stays.
        await trx
          .updateTable('oauth_tokens')
          .set({ revoked_at: new Date(context.clock.now()) })
          .where('user_id', '=', userId)
          .where('family_id', '!=', principal.familyId)
          .where('revoked_at', 'is', null)
          .execute();
        // A passkey signs in without the password: a new password leaves it unless the owner asks otherwise.
        if (body.removePasskeys) await oauth.passkeys.removeAll(userId, trx);
      });
      forgetCachedTokens(context.database);
      await oauth.browserSessions.end(request, reply, userId, { keepThis: true });
      await sendNotice(context, user.email, user.firstname, 'Your Hearth password changed', [
        `The password of your Hearth account was changed, and every other sign-in was ended${body.removePasskeys ? ', and every passkey removed' : ''}.`,
        '',
        `If you did not do this, reset your password now: ${context.config.publicUrl}/cloud/password-forgotten`,
      ]);
    },

    getUserProfile: async ({ params, principal }) => {
      requireSelf(principal, params.userId);
      const user = await userRow(db, params.userId);
      const avatar = avatarRecord(publicUrl, user);
      return { _id: user.id, firstname: user.firstname, lastname: user.lastname, ...(avatar ? { avatar } : {}) };
    },

    getUserSessions: async ({ params, principal }) => {
      requireSelf(principal, params.userId);
      await userRow(db, params.userId);
      return sessionsOf(params.userId, principal);
    },

    deleteUserSession: async ({ params, principal }) => {
      requireSelf(principal, params.userId);
      const result = await db
        .updateTable('oauth_tokens')
        .set({ revoked_at: new Date(context.clock.now()) })
        .where('user_id', '=', params.userId)
        .where('family_id', '=', params.sessionId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      forgetCachedTokens(context.database);
      if (Number(result.numUpdatedRows) === 0) throw notFound('Session', params.sessionId);
    },

    acceptInvite: async ({ params, body, principal }) => {
      requireSelf(principal, params.userId);
      if (params.inviterId === params.userId) throw invalidParameter('inviterId', 'You cannot accept your own invite');
      await userRow(db, params.userId);
      await userRow(db, params.inviterId);
      const joined = body?.token ? await acceptHubInvite(context, params.userId, params.inviterId, body.token) : null;
      const acceptedAt = new Date(context.clock.now());
      await db
        .insertInto('accepted_invites')
        .values({ user_id: params.userId, inviter_id: params.inviterId, accepted_at: acceptedAt })
        .onConflict((oc) => oc.columns(['user_id', 'inviter_id']).doNothing())
        .execute();
      const row = await db
        .selectFrom('accepted_invites')
        .selectAll()
        .where('user_id', '=', params.userId)
        .where('inviter_id', '=', params.inviterId)
        .executeTakeFirstOrThrow();
      return { inviterId: row.inviter_id, acceptedAt: row.accepted_at.toISOString(), ...joined };
    },
  });
}
