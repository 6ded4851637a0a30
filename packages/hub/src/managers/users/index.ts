import { randomBytes } from 'node:crypto';
import { HearthError, hasScope, hubOperations, intersectScopes, invalidParameter, notFound } from '@hearth/contract';
import { implement, SignInThrottle } from '@hearth/contract/fastify';
import { cloudRoleOf } from '../../cloudlink/ownership';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { type DelegationClaims, DelegationVerifier } from '../../platform/delegation';
import { type HubUser, type UserRole, userView } from '../../platform/identity/users';
import { intersectedScopes, isHouseholdAdmin, isKnownScope } from '../../platform/roles';

/** Sessions made by signing in (cloud delegation or local credentials) last this long. */
const LOGIN_SESSION_MS = 14 * 24 * 3600_000;
/** How long an installer may sign in after the owner grants access. */
const INSTALLER_ACCESS_MS = 24 * 3600_000;
const INSTALLER_SETTING = 'users.installerAccess';

const assignableRoles: readonly string[] = ['manager', 'user', 'guest'];

function requireUser(context: HubContext, id: string): HubUser {
  const user = context.users.get(id);
  if (!user) throw notFound('User', id);
  return user;
}

interface InstallerGrant {
  grantedAt: string;
  expiresAt: string;
}

function installerAccess(context: HubContext) {
  const grant = context.settings.get<InstallerGrant | null>(INSTALLER_SETTING, null);
  const granted = grant !== null && Date.parse(grant.expiresAt) > context.clock.now();
  return { granted, grantedAt: granted ? grant.grantedAt : null, expiresAt: granted ? grant.expiresAt : null };
}

const newLoginSession = (context: HubContext, user: HubUser, clientName: string | null, expiresAt?: string) =>
  context.sessions.create({
    type: 'OAUTH',
    userId: user.id,
    name: clientName ?? '',
    clientName,
    scopes: null,
    expiresAt: expiresAt ?? new Date(context.clock.now() + LOGIN_SESSION_MS).toISOString(),
  }).token;

/**
 * The hub user a delegation token stands for, matched by `athomId` = the token's subject.
 *
 * - A known cloud account signs in as its user.
 * - Otherwise the account needs a role on this hub that the cloud vouches for: the `role` of a token naming this
 *   hub (`homeyId`; the cloud signs it from its hub registry), or, for a token naming no hub, the role the
 *   cloud's registry gives the account when the hub asks it with its own credentials. The owner configured on
 *   the hub (`ownerAthomId`) is the owner without asking.
 * - `owner` binds the hub's owner user (created on first start) while no account is bound to it; another
 *   assignable role creates that user. Anyone else is refused: a hub nobody claimed is never taken by the first
 *   account that signs in.
 */
async function userForDelegation(context: HubContext, claims: DelegationClaims): Promise<HubUser> {
  if (claims.homeyId !== undefined && claims.homeyId !== context.config.id) {
    throw new HearthError('invalid_token', 'This delegation token was made for another hub');
  }
  const existing = context.users.findByAthomId(claims.sub);
  if (existing) {
    if (!existing.enabled) throw new HearthError('forbidden', 'This user is disabled on this hub');
    return existing;
  }
  const configuredOwner = context.config.ownerAthomId ?? null;
  const role =
    claims.homeyId === context.config.id
      ? (claims.role ?? null)
      : configuredOwner === claims.sub
        ? 'owner'
        : await cloudRoleOf(context.cloud, context.config, claims.sub);
  const owner = context.users.owner();
  if (role === 'owner' && owner && owner.athomId === null && (configuredOwner === null || configuredOwner === claims.sub)) {
    return context.users.update(owner.id, { athomId: claims.sub, ...(claims.name ? { name: claims.name } : {}) }) as HubUser;
  }
  if (role !== null && assignableRoles.includes(role)) {
    // A member the cloud knows; a second sign-in that raced this one finds the user made by the first.
    return (
      context.users.findByAthomId(claims.sub) ??
      context.users.create({ name: claims.name ?? 'User', role: role as UserRole, athomId: claims.sub })
    );
  }
  throw new HearthError('forbidden', 'This account is not a user of this hub');
}

function checkScopes(scopes: readonly string[]): void {
  scopes.forEach((scope, index) => {
    if (!isKnownScope(scope)) throw invalidParameter(`scopes.${index}`, `Unknown scope "${scope}"`);
  });
}

/** The users of the hub: the owner, invited people with roles, their personal access tokens and sign-in. */
export const usersManager: HubManager = {
  name: 'users',
  create: (context) => {
    const verifier = new DelegationVerifier(context.config.cloudUrl);
    const { users, sessions } = context;
    // Local sign-in is slowed by the same rules as the cloud's (see SignInThrottle).
    const signInThrottle = new SignInThrottle(context.limits);

    const setCredentials = async (userId: string, username: string, password: string) => {
      if ((await users.setCredentials(userId, username, password)) === 'taken') {
        throw new HearthError('conflict', 'This username is taken');
      }
    };
    /** Handing the hub over and letting an installer in are the owner's (their operations ask for `homey.user`). */
    const requireOwner = (principal: HubPrincipal) => {
      if (principal.role !== 'owner') throw new HearthError('forbidden', 'Only the owner of the hub may do this');
    };
    const requireInstaller = async (jwt: string): Promise<{ claims: DelegationClaims }> => {
      const claims = await verifier.verify(jwt);
      if (claims.homeyId !== undefined && claims.homeyId !== context.config.id) {
        throw new HearthError('invalid_token', 'This delegation token was made for another hub');
      }
      if (!installerAccess(context).granted) throw new HearthError('forbidden', 'The owner has not granted installer access');
      return { claims };
    };

    return {
      implementations: implement<typeof hubOperations.users, HubPrincipal>(hubOperations.users, {
        getState: () => ({
          ownerId: users.owner()?.id ?? '',
          userCount: users.count(),
          installerAccess: installerAccess(context),
        }),
        login: async ({ body }) => {
          const claims = await verifier.verify(body.token);
          const user = await userForDelegation(context, claims);
          return newLoginSession(context, user, null);
        },
        getUserMe: ({ principal }) => requireUser(context, principal.userId),
        updateUserMe: ({ principal, body }) => {
          const name = body.name?.trim();
          if (body.name !== undefined && !name) throw invalidParameter('name', 'Must not be empty');
          return users.update(requireUser(context, principal.userId).id, { name }) as HubUser;
        },
        deleteUserMe: ({ principal }) => {
          if (principal.role === 'owner') throw new HearthError('forbidden', 'The owner must hand the hub over before leaving');
          users.delete(principal.userId);
          context.bus.emit('user.removed', { userId: principal.userId });
        },
        getUsers: ({ principal }) => Object.fromEntries(users.list().map((user) => [user.id, userView(user, principal)])),
        getUser: ({ principal, params }) => userView(requireUser(context, params.id), principal),
        createUser: ({ body }) => {
          const name = body.name === undefined ? 'Invited user' : body.name.trim();
          if (!name) throw invalidParameter('user.name', 'Must not be empty');
          const inviteToken = randomBytes(24).toString('base64url');
          const user = users.create({
            name,
            role: body.role,
            enabled: body.enabled,
            verified: false,
            properties: body.properties,
            inviteToken,
          });
          return { ...user, inviteToken };
        },
        updateUser: ({ principal, params, body }) => {
          const user = requireUser(context, params.id);
          if (user.role === 'owner' && principal.userId !== user.id) {
            throw new HearthError('forbidden', 'Only the owner may change the owner');
          }
          if (user.role === 'owner' && body.role !== undefined) {
            throw invalidParameter('user.role', 'The owner keeps the owner role; use swap-owner to hand the hub over');
          }
          if (user.role === 'owner' && body.enabled === false)
            throw invalidParameter('user.enabled', 'The owner cannot be disabled');
          const name = body.name?.trim();
          if (body.name !== undefined && !name) throw invalidParameter('user.name', 'Must not be empty');
          return users.update(user.id, { name, role: body.role, enabled: body.enabled, properties: body.properties }) as HubUser;
        },
        deleteUser: ({ params }) => {
          const user = requireUser(context, params.id);
          if (user.role === 'owner') throw new HearthError('forbidden', 'The owner cannot be deleted');
          users.delete(user.id);
          context.bus.emit('user.removed', { userId: user.id });
        },
        updateUserMeProperties: ({ principal, params, body }) => {
          const user = requireUser(context, principal.userId);
          return users.update(user.id, { properties: { ...user.properties, [params.id]: body.value } }) as HubUser;
        },
        deleteUserMeProperties: ({ principal, params }) => {
          const user = requireUser(context, principal.userId);
          if (!(params.id in user.properties)) throw notFound('Property', params.id);
          const { [params.id]: _removed, ...properties } = user.properties;
          return users.update(user.id, { properties }) as HubUser;
        },
        swapOwner: ({ principal, body }) => {
          requireOwner(principal);
          const next = requireUser(context, body.newOwnerUserId);
          if (next.id === principal.userId) throw invalidParameter('newOwnerUserId', 'This user is the owner already');
          if (!next.enabled || !next.verified) {
            throw invalidParameter('newOwnerUserId', 'The new owner must be an enabled user who accepted the invitation');
          }
          return users.swapOwner(next.id);
        },
        acceptInvite: ({ body }) => {
          const secret = body.inviteToken ?? body.secret;
          if (secret === undefined) throw new HearthError('missing_parameter', 'Missing Parameter: inviteToken');
          const user = users.findByInvite(secret);
          if (!user) throw notFound('Invitation');
          const holder = users.findByAthomId(body.athomId);
          if (holder && holder.id !== user.id) throw new HearthError('conflict', 'This account is a user of this hub already');
          const name = body.name?.trim();
          return users.acceptInvite(user.id, body.athomId, name || undefined);
        },
        getPersonalAccessTokens: ({ principal }) =>
          sessions.listPats(principal.userId).map((session) => ({
            id: session.id,
            name: session.name,
            scopes: session.scopes ?? ['homey'],
            createdAt: session.createdAt,
            lastUsed: session.lastUsed,
          })),
        createPersonalAccessToken: ({ principal, body }) => {
          const name = body.name.trim();
          if (!name) throw invalidParameter('name', 'Must not be empty');
          checkScopes(body.scopes);
          // Capped by the creating session's own scopes, which are already capped by the user's role.
          const scopes = intersectScopes(body.scopes, principal.scopes ?? ['homey']);
          const { session, token } = sessions.create({ type: 'PAT', userId: principal.userId, name, scopes });
          return { id: session.id, token, name, scopes };
        },
        deletePersonalAccessToken: ({ principal, params }) => {
          const session = sessions.get(params.id);
          if (session?.type !== 'PAT' || session.userId !== principal.userId) {
            throw notFound('Personal access token', params.id);
          }
          // The call asks for no scope, so a narrowed token (a dashboard's, a script's) must not take wider access
          // away: it may revoke itself, or tokens whose every scope it holds; the owner's need `homey.user` too.
          if (session.id !== principal.sessionId) {
            if (principal.role === 'owner' && !hasScope(principal.scopes, 'homey.user'))
              throw new HearthError('missing_scopes', "Missing Scopes: homey.user (to revoke the owner's tokens)");
            const held = intersectedScopes(session.scopes, principal.role);
            if (!held.every((scope) => hasScope(principal.scopes, scope)))
              throw new HearthError('forbidden', 'A token may only revoke tokens whose scopes it holds itself');
          }
          sessions.delete(session.id);
        },
        loginLocal: async ({ body, request }) => {
          const user = await signInThrottle.attempt(
            body.username,
            request.ip,
            async () => (await users.verifyCredentials(body.username, body.password)) ?? null,
          );
          if (!user) throw new HearthError('invalid_credentials', 'Invalid username or password');
          return newLoginSession(context, user, body.clientName);
        },
        updateUserMeLocalCredentials: async ({ principal, body }) => {
          await setCredentials(principal.userId, body.username, body.password);
        },
        updateUserLocalCredentials: async ({ principal, params, body }) => {
          if (!isHouseholdAdmin(principal, 'homey.user'))
            throw new HearthError('forbidden', 'Only owners and managers may do this');
          const user = requireUser(context, params.id);
          if (user.role === 'owner' && principal.role !== 'owner')
            throw new HearthError('forbidden', 'Only the owner may do this');
          await setCredentials(user.id, body.username, body.password);
        },
        deleteUserMeLocalCredentials: ({ principal }) => {
          users.deleteCredentials(principal.userId);
        },
        deleteUserLocalCredentials: ({ principal, params }) => {
          if (!isHouseholdAdmin(principal, 'homey.user'))
            throw new HearthError('forbidden', 'Only owners and managers may do this');
          const user = requireUser(context, params.id);
          if (user.role === 'owner' && principal.role !== 'owner')
            throw new HearthError('forbidden', 'Only the owner may do this');
          users.deleteCredentials(user.id);
        },
        grantInstallerAccess: ({ principal }) => {
          requireOwner(principal);
          const now = context.clock.now();
          const grant: InstallerGrant = {
            grantedAt: new Date(now).toISOString(),
            expiresAt: new Date(now + INSTALLER_ACCESS_MS).toISOString(),
          };
          context.settings.set(INSTALLER_SETTING, grant);
          return installerAccess(context);
        },
        revokeInstallerAccess: ({ principal }) => {
          requireOwner(principal);
          context.settings.delete(INSTALLER_SETTING);
          for (const user of users.list()) {
            if (user.properties.installer === true) for (const session of sessions.list(user.id)) sessions.delete(session.id);
          }
          return installerAccess(context);
        },
        requestInstallerAccess: async ({ body }) => {
          const { claims } = await requireInstaller(body.jwt);
          const existing = users.findByAthomId(claims.sub);
          const installer =
            existing ??
            users.create({
              name: claims.name ?? 'Installer',
              role: 'manager',
              athomId: claims.sub,
              properties: { installer: true },
            });
          if (!installer.enabled) throw new HearthError('forbidden', 'This user is disabled on this hub');
          return newLoginSession(context, installer, 'Installer', installerAccess(context).expiresAt ?? undefined);
        },
        swapOwnerInstaller: async ({ body }) => {
          const { claims } = await requireInstaller(body.jwt);
          const installer = users.findByAthomId(claims.sub);
          if (installer?.properties.installer !== true) throw new HearthError('forbidden', 'Only the installer may do this');
          const next = requireUser(context, body.newOwnerUserId);
          if (!next.enabled || !next.verified || next.role === 'owner') {
            throw invalidParameter('newOwnerUserId', 'The new owner must be an enabled user who accepted the invitation');
          }
          return users.swapOwner(next.id);
        },
      }),
      start: () => {
        // The configured owner account binds the owner user, unless another user already has it.
        const owner = users.owner();
        const athomId = context.config.ownerAthomId;
        if (owner && owner.athomId === null && athomId && !users.findByAthomId(athomId)) {
          users.update(owner.id, { athomId });
        }
      },
    };
  },
};
