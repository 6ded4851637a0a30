import { Type } from 'typebox';
import { hubManager } from '../operation';

const op = hubManager('users');

export const UserRole = Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('user'), Type.Literal('guest')]);
/** Roles that can be given to a user directly; the owner changes only through `swapOwner`. */
export const AssignableRole = Type.Union([Type.Literal('manager'), Type.Literal('user'), Type.Literal('guest')]);

/** A person of the household. `athomId` is the cloud account's `_id` once the user has signed in through the cloud. */
export const User = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    athomId: Type.Union([Type.String(), Type.Null()]),
    properties: Type.Record(Type.String(), Type.Unknown()),
    enabled: Type.Boolean(),
    verified: Type.Boolean(),
    role: UserRole,
    present: Type.Boolean(),
    asleep: Type.Boolean(),
    /** Only in the answer of `createUser`: the secret the invited person accepts the invitation with. */
    inviteToken: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

const UserName = Type.String({ minLength: 1, maxLength: 255 });

export const NewUser = Type.Object(
  {
    name: Type.Optional(UserName),
    role: AssignableRole,
    enabled: Type.Optional(Type.Boolean()),
    properties: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);

export const UserChanges = Type.Object(
  {
    name: Type.Optional(UserName),
    role: Type.Optional(AssignableRole),
    enabled: Type.Optional(Type.Boolean()),
    properties: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);

/** A personal access token as listed; the secret token is shown only once, when it is created. */
export const PersonalAccessToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  createdAt: Type.String(),
  lastUsed: Type.Union([Type.String(), Type.Null()]),
});

export const CreatedPersonalAccessToken = Type.Object({
  id: Type.String(),
  token: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
});

export const InstallerAccess = Type.Object({
  granted: Type.Boolean(),
  grantedAt: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
});

export const UsersState = Type.Object(
  { ownerId: Type.String(), userCount: Type.Number(), installerAccess: InstallerAccess },
  { additionalProperties: true },
);

const UserId = Type.Object({ id: Type.String({ minLength: 1 }) });
const Username = Type.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9._@-]+$' });
const Password = Type.String({ minLength: 8, maxLength: 256 });
const LocalCredentials = Type.Object({ username: Username, password: Password });
/** A session token, answered as a bare JSON string. */
const SessionToken = Type.String();

export const usersOperations = {
  getState: op({
    name: 'getState',
    method: 'GET',
    path: '/state',
    scope: 'homey.system.readonly',
    response: UsersState,
  }),
  login: op({
    name: 'login',
    method: 'POST',
    path: '/login',
    scope: null,
    auth: false,
    body: Type.Object({ token: Type.String({ minLength: 1, description: 'A delegation token (JWT) from the cloud' }) }),
    response: SessionToken,
    errors: ['invalid_token', 'forbidden', 'unavailable'],
    summary: 'Exchanges a delegation token from the cloud for a session token (a bare JSON string).',
  }),
  getUserMe: op({
    name: 'getUserMe',
    method: 'GET',
    path: '/user/me',
    scope: 'homey.user.self',
    response: User,
  }),
  updateUserMe: op({
    name: 'updateUserMe',
    method: 'PUT',
    path: '/user/me',
    scope: 'homey.user.self',
    body: Type.Object({ name: Type.Optional(UserName) }),
    response: User,
  }),
  deleteUserMe: op({
    name: 'deleteUserMe',
    method: 'DELETE',
    path: '/user/me',
    scope: 'homey.user.self',
    errors: ['forbidden'],
    summary: 'Leaves the hub; the owner must hand the hub over first.',
  }),
  getUsers: op({
    name: 'getUsers',
    method: 'GET',
    path: '/user',
    scope: 'homey.user.readonly',
    response: Type.Record(Type.String(), User),
  }),
  getUser: op({
    name: 'getUser',
    method: 'GET',
    path: '/user/:id',
    scope: 'homey.user.readonly',
    params: UserId,
    response: User,
    errors: ['not_found'],
  }),
  createUser: op({
    name: 'createUser',
    method: 'POST',
    path: '/user',
    scope: 'homey.user',
    body: NewUser,
    bodyRoot: 'user',
    response: User,
    summary: 'Invites a person: answers the new user with the `inviteToken` they accept the invitation with.',
  }),
  updateUser: op({
    name: 'updateUser',
    method: 'PUT',
    path: '/user/:id',
    scope: 'homey.user',
    params: UserId,
    body: UserChanges,
    bodyRoot: 'user',
    response: User,
    errors: ['not_found', 'forbidden'],
  }),
  deleteUser: op({
    name: 'deleteUser',
    method: 'DELETE',
    path: '/user/:id',
    scope: 'homey.user',
    params: UserId,
    errors: ['not_found', 'forbidden'],
  }),
  updateUserMeProperties: op({
    name: 'updateUserMeProperties',
    method: 'PUT',
    path: '/user/me/properties/:id',
    scope: 'homey.user.self',
    params: UserId,
    body: Type.Object({ value: Type.Record(Type.String(), Type.Unknown()) }),
    response: User,
  }),
  deleteUserMeProperties: op({
    name: 'deleteUserMeProperties',
    method: 'DELETE',
    path: '/user/me/properties/:id',
    scope: 'homey.user.self',
    params: UserId,
    response: User,
    errors: ['not_found'],
  }),
  swapOwner: op({
    name: 'swapOwner',
    method: 'POST',
    path: '/swap-owner',
    scope: null,
    body: Type.Object({ newOwnerUserId: Type.String({ minLength: 1 }) }),
    response: User,
    errors: ['forbidden', 'not_found'],
    summary: 'The owner hands the hub over to another user, and becomes a manager.',
  }),
  acceptInvite: op({
    name: 'acceptInvite',
    method: 'POST',
    path: '/accept',
    scope: null,
    auth: false,
    body: Type.Object({
      inviteToken: Type.Optional(Type.String({ minLength: 1 })),
      secret: Type.Optional(Type.String({ minLength: 1, description: 'The invitation secret; the older name of `inviteToken`' })),
      athomId: Type.String({ minLength: 1 }),
      name: Type.Optional(UserName),
    }),
    response: User,
    errors: ['missing_parameter', 'invalid_token'],
    summary: 'Accepts an invitation: binds the invited user to a cloud account (`athomId`).',
  }),
  getPersonalAccessTokens: op({
    name: 'getPersonalAccessTokens',
    method: 'GET',
    path: '/pat',
    scope: null,
    response: Type.Array(PersonalAccessToken),
    summary: "The caller's personal access tokens.",
  }),
  createPersonalAccessToken: op({
    name: 'createPersonalAccessToken',
    method: 'POST',
    path: '/pat',
    scope: null,
    body: Type.Object({
      name: Type.String({ minLength: 1, maxLength: 255 }),
      scopes: Type.Array(Type.String({ minLength: 1 }), { maxItems: 100 }),
    }),
    response: CreatedPersonalAccessToken,
    errors: ['invalid_parameter'],
    summary: "Creates a token whose scopes are capped by the caller's own.",
  }),
  deletePersonalAccessToken: op({
    name: 'deletePersonalAccessToken',
    method: 'DELETE',
    path: '/pat/:id',
    scope: null,
    params: UserId,
    errors: ['not_found'],
  }),
  loginLocal: op({
    name: 'loginLocal',
    method: 'POST',
    path: '/login-local',
    scope: null,
    auth: false,
    body: Type.Object({
      username: Type.String({ minLength: 1 }),
      password: Type.String({ minLength: 1 }),
      clientId: Type.String({ minLength: 1 }),
      clientName: Type.String({ minLength: 1 }),
    }),
    response: SessionToken,
    errors: ['invalid_credentials'],
    summary: 'Signs in with local credentials, without the cloud; answers a session token (a bare JSON string).',
  }),
  updateUserMeLocalCredentials: op({
    name: 'updateUserMeLocalCredentials',
    method: 'PUT',
    path: '/user/me/local-credentials',
    scope: 'homey.user.self',
    body: LocalCredentials,
    errors: ['conflict'],
  }),
  updateUserLocalCredentials: op({
    name: 'updateUserLocalCredentials',
    method: 'PUT',
    path: '/user/:id/local-credentials',
    scope: null,
    params: UserId,
    body: LocalCredentials,
    errors: ['forbidden', 'not_found', 'conflict'],
    summary: "Sets another user's local credentials: owners and managers only.",
  }),
  deleteUserMeLocalCredentials: op({
    name: 'deleteUserMeLocalCredentials',
    method: 'DELETE',
    path: '/user/me/local-credentials',
    scope: 'homey.user.self',
  }),
  deleteUserLocalCredentials: op({
    name: 'deleteUserLocalCredentials',
    method: 'DELETE',
    path: '/user/:id/local-credentials',
    scope: null,
    params: UserId,
    errors: ['forbidden', 'not_found'],
  }),
  grantInstallerAccess: op({
    name: 'grantInstallerAccess',
    method: 'POST',
    path: '/installer/grant',
    scope: null,
    response: InstallerAccess,
    errors: ['forbidden'],
    summary: 'The owner lets an installer sign in as a manager for a limited time.',
  }),
  revokeInstallerAccess: op({
    name: 'revokeInstallerAccess',
    method: 'POST',
    path: '/installer/revoke',
    scope: null,
    response: InstallerAccess,
    errors: ['forbidden'],
  }),
  requestInstallerAccess: op({
    name: 'requestInstallerAccess',
    method: 'POST',
    path: '/installer/request',
    scope: null,
    auth: false,
    body: Type.Object({ jwt: Type.String({ minLength: 1, description: "A delegation token of the installer's cloud account" }) }),
    response: SessionToken,
    errors: ['invalid_token', 'forbidden'],
    summary: 'An installer signs in while the owner grants installer access; answers a session token.',
  }),
  swapOwnerInstaller: op({
    name: 'swapOwnerInstaller',
    method: 'POST',
    path: '/installer/swap-owner',
    scope: null,
    auth: false,
    body: Type.Object({ newOwnerUserId: Type.String({ minLength: 1 }), jwt: Type.String({ minLength: 1 }) }),
    response: User,
    errors: ['invalid_token', 'forbidden', 'not_found'],
    summary: 'An installer holding installer access hands the hub over to its new owner.',
  }),
} as const;
