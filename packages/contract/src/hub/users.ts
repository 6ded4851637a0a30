import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { usersExamples } from './examples';

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
    summary: "The owner's id, how many users the hub has and whether installer access is on.",
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
    description:
      "Needs no session: the delegation token, signed by the cloud for this hub's user, is the credential, and the session it answers is capped by that user's role. A token the hub cannot verify is refused.",
  }),
  getUserMe: op({
    name: 'getUserMe',
    examples: usersExamples.getUserMe,
    summary: 'The signed-in member: name, role, presence, sleep and properties.',
    method: 'GET',
    path: '/user/me',
    scope: 'homey.user.self',
    response: User,
  }),
  updateUserMe: op({
    name: 'updateUserMe',
    summary: "Changes the signed-in member's own name or avatar.",
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
    examples: usersExamples.getUsers,
    summary: 'Every member of the household, by id.',
    method: 'GET',
    path: '/user',
    scope: 'homey.user.readonly',
    response: Type.Record(Type.String(), User),
  }),
  getUser: op({
    name: 'getUser',
    summary: 'One member of the household.',
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
    summary: 'Changes a member (name, role, enabled); managing others needs the owner or a manager.',
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
    summary: 'Removes a member from the hub.',
    method: 'DELETE',
    path: '/user/:id',
    scope: 'homey.user',
    params: UserId,
    errors: ['not_found', 'forbidden'],
  }),
  updateUserMeProperties: op({
    name: 'updateUserMeProperties',
    summary: "Stores one of the signed-in member's own properties (private to them unless shared).",
    method: 'PUT',
    path: '/user/me/properties/:id',
    scope: 'homey.user.self',
    params: UserId,
    body: Type.Object({ value: Type.Record(Type.String(), Type.Unknown()) }),
    response: User,
  }),
  deleteUserMeProperties: op({
    name: 'deleteUserMeProperties',
    summary: "Deletes one of the signed-in member's own properties.",
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
    // The wire lists no scope; handing the hub over changes users as much as any `homey.user` call.
    scope: 'homey.user',
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
    description:
      'Needs no session: the invitation secret is the credential. It binds only the user it invited, once, with the role the inviter chose; a wrong secret answers 404 and changes nothing.',
  }),
  getPersonalAccessTokens: op({
    name: 'getPersonalAccessTokens',
    method: 'GET',
    path: '/pat',
    scope: null,
    response: Type.Array(PersonalAccessToken),
    summary: "The caller's personal access tokens.",
    description:
      "Any session may list its own user's tokens: names, scopes and dates, never the token values, and never another user's.",
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
    description:
      'Any session may make one for its own user: the new token gets only the requested scopes the calling session holds itself, so it can never do more than its maker.',
  }),
  deletePersonalAccessToken: op({
    name: 'deletePersonalAccessToken',
    method: 'DELETE',
    path: '/pat/:id',
    scope: null,
    params: UserId,
    errors: ['not_found', 'forbidden', 'missing_scopes'],
    summary: "Revokes one of the caller's personal access tokens.",
    description:
      "A session may revoke itself, or another token of its own user whose scopes it holds itself (a narrowed token cannot take wider access away); the owner's tokens need `homey.user` besides. Other users' tokens answer 404.",
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
    errors: ['invalid_credentials', 'rate_limited'],
    summary:
      'Signs in with local credentials, without the cloud; answers a session token (a bare JSON string). Failed sign-ins are slowed per account and per address (429 with Retry-After).',
    description:
      "Needs no session: the username and password are the credential, and the session it answers is capped by that user's role.",
  }),
  updateUserMeLocalCredentials: op({
    name: 'updateUserMeLocalCredentials',
    summary: "Sets the signed-in member's local sign-in (for the hub without the cloud).",
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
    // The wire lists no scope; setting another user's password changes users as much as any `homey.user` call.
    scope: 'homey.user',
    params: UserId,
    body: LocalCredentials,
    errors: ['forbidden', 'not_found', 'conflict'],
    summary: "Sets another user's local credentials: owners and managers only.",
  }),
  deleteUserMeLocalCredentials: op({
    name: 'deleteUserMeLocalCredentials',
    summary: "Removes the signed-in member's local sign-in.",
    method: 'DELETE',
    path: '/user/me/local-credentials',
    scope: 'homey.user.self',
  }),
  deleteUserLocalCredentials: op({
    name: 'deleteUserLocalCredentials',
    method: 'DELETE',
    path: '/user/:id/local-credentials',
    scope: 'homey.user',
    params: UserId,
    errors: ['forbidden', 'not_found'],
    summary: "Removes another user's local credentials: owners and managers only.",
  }),
  grantInstallerAccess: op({
    name: 'grantInstallerAccess',
    method: 'POST',
    path: '/installer/grant',
    scope: 'homey.user',
    response: InstallerAccess,
    errors: ['forbidden'],
    summary: 'The owner lets an installer sign in as a manager for a limited time.',
  }),
  revokeInstallerAccess: op({
    name: 'revokeInstallerAccess',
    method: 'POST',
    path: '/installer/revoke',
    scope: 'homey.user',
    response: InstallerAccess,
    errors: ['forbidden'],
    summary: "The owner ends installer access and the installer's sessions.",
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
    description:
      "Needs no session: the installer's delegation token is the credential, and it works only while the owner's grant lasts; the session it answers ends with the grant.",
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
    description:
      "Needs no session: the installer's delegation token is the credential, and only the installer the owner let in, while the grant lasts, may hand the hub to a user who accepted an invitation.",
  }),
} as const;

/** Wire events of the users manager (each session sees another user as the API would answer it). */
export const usersEvents = managerEvents('users', { events: entityEvents('user', User) });
