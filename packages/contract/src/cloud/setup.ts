import { type Static, type TSchema, Type } from 'typebox';
import { cloudService } from '../operation';
import { Backup } from './backup';
import { DateTime } from './schemas';

const op = cloudService('setup', '/setup');

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Record ids of the cloud: 24 hexadecimal characters. */
const RecordId = Type.String({ pattern: '^[0-9a-f]{24}$' });
const FreeObject = Type.Record(Type.String(), Type.Unknown());

/** Limits of the setup service, enforced by the server. */
export const SETUP_LIMITS = {
  /** A session not finished within this time expires: its calls answer 410 and a sweep removes it a day later. */
  sessionLifetimeSeconds: 3600,
  /** Commands one session may carry. */
  maxCommands: 200,
  /** Sessions one account may have open at once (a phone that retries must not pile them up). */
  maxOpenSessionsPerUser: 10,
} as const;

/**
 * The states of a setup session, in order. `created` (by the app, or by a hub waiting for its owner) →
 * `homey_connected` (the hub joined with the session's hub token) → `signed_in` (the app handed over a delegation
 * token of its account) → `configured` (the app set the hub's name and claimed it with its claim token: the reset)
 * → `done` (the hub applied it). Any other step answers 409.
 */
export const SetupState = Type.Union([
  Type.Literal('created'),
  Type.Literal('homey_connected'),
  Type.Literal('signed_in'),
  Type.Literal('configured'),
  Type.Literal('done'),
]);
export type SetupStateValue = Static<typeof SetupState>;

/** What the app asked the hub to become (`updateSessionHomey`). The claim `token` itself is never shown again. */
export const SetupReset = Type.Object({
  factoryreset: Type.Boolean(),
  name: Nullable(Type.String()),
  extraProperties: FreeObject,
});

/**
 * What else the hub is to become, as the reset carries it (`extraProperties`): the keys the hub acts on are declared,
 * others are kept for the app and the hub to share.
 */
export const SetupExtraProperties = Type.Object(
  {
    /** A backup of the account to restore (`getSessionBackups`); the hub restarts on its data. */
    backupId: Type.Optional(RecordId),
    /** The hub's language (its `i18n` option `language`). */
    language: Type.Optional(Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' })),
    /** The hub's IANA time zone (its `i18n` option `timezone`), e.g. from `getTimezone`; an unknown zone answers 400. */
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: true },
);

/** One setup session as its participants see it. */
export const SetupSession = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  /** The serial number of the hub being set up, when the app or hub named it. */
  sn: Nullable(Type.String()),
  state: SetupState,
  /** The account setting the hub up; `null` while a session a hub created waits for someone to open it. */
  userId: Nullable(Type.String()),
  homeyId: Nullable(Type.String()),
  /** Free data the app and the hub share (`updateSession`). */
  data: FreeObject,
  reset: Nullable(SetupReset),
  createdAt: DateTime,
  updatedAt: DateTime,
  expiresAt: DateTime,
  /** Only in `createSession`'s answer: the credential the hub joins with (`Authorization: Bearer …`). */
  hubToken: Type.Optional(Type.String()),
  /** Only to the hub, once signed in: the account's delegation token to sign its owner in with. */
  delegationToken: Type.Optional(Type.String()),
});
export type SetupSessionBody = Static<typeof SetupSession>;

/** A command of the app to the hub, and the hub's answer (`[error, result]`, as a callback gets them). */
export const SetupCommand = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  manager: Type.String(),
  command: Type.String(),
  args: FreeObject,
  /** `null` until the hub answered. */
  result: Nullable(Type.Array(Type.Unknown())),
  createdAt: DateTime,
  answeredAt: Nullable(DateTime),
});
export type SetupCommandBody = Static<typeof SetupCommand>;

const SessionParams = Type.Object({ sessionId: RecordId });
const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_.-]*$' });

const whoMayCall =
  'Needs no scope: the session is the credential. Its account (a signed-in user’s token) or its hub (the `hubToken` as Bearer) may call it; anyone else is answered 404, an expired session 410.';
const appOnly =
  'Needs no scope: only the account the session belongs to may call it (anyone else is answered 404, an expired session 410).';
const hubOnly = 'Needs no scope: only the session’s hub, with its `hubToken` as Bearer, may call it.';

/** Device setup sessions under `/setup`: the mobile app and a new hub meet in one to set the hub up. */
export const setupOperations = {
  createSession: op({
    name: 'createSession',
    method: 'POST',
    path: '/',
    scope: null,
    body: Type.Optional(
      Type.Object({
        sn: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        /** A hub creating a session for itself names itself (the provider's internal client only). */
        homeyId: Type.Optional(RecordId),
      }),
    ),
    response: SetupSession,
    successStatus: 201,
    errors: ['forbidden', 'invalid_parameter', 'rate_limited'],
    summary:
      'Opens a setup session and answers it with its `hubToken`, which the app hands to the hub. A hub may open one for itself (internal client, naming its `homeyId`): it starts connected and belongs to the first account that opens it by id.',
    description:
      'Needs no scope: the session belongs to the caller. A session expires an hour after it was opened; an account may have ten open at once.',
  }),
  getSession: op({
    name: 'getSession',
    method: 'GET',
    path: '/:sessionId',
    scope: null,
    auth: false,
    params: SessionParams,
    response: SetupSession,
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone'],
    summary: 'The session: its state, hub, shared data and the reset the app asked for.',
    description: whoMayCall,
  }),
  updateSession: op({
    name: 'updateSession',
    method: 'PUT',
    path: '/:sessionId',
    scope: null,
    auth: false,
    params: SessionParams,
    body: Type.Object({ data: FreeObject }),
    response: SetupSession,
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone', 'conflict'],
    summary: 'Merges `data` into the data the app and the hub share (a `null` value removes a key).',
    description: whoMayCall,
  }),
  deleteSession: op({
    name: 'deleteSession',
    method: 'DELETE',
    path: '/:sessionId',
    scope: null,
    auth: false,
    params: SessionParams,
    errors: ['missing_token', 'invalid_token', 'not_found'],
    summary: 'Ends the session with its commands, whatever its state.',
    description: appOnly,
  }),
  getSessionState: op({
    name: 'getSessionState',
    method: 'GET',
    path: '/:sessionId/state',
    scope: null,
    auth: false,
    params: SessionParams,
    response: Type.Object({ state: SetupState, updatedAt: DateTime, expiresAt: DateTime }),
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone'],
    summary: 'The session’s state alone, for polling.',
    description: whoMayCall,
  }),
  setSessionState: op({
    name: 'setSessionState',
    method: 'PUT',
    path: '/:sessionId/state',
    scope: null,
    auth: false,
    params: SessionParams,
    body: Type.Object({ data: Type.Object({ state: SetupState, homeyId: Type.Optional(RecordId) }) }),
    response: SetupSession,
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone', 'conflict', 'forbidden', 'missing_parameter'],
    summary:
      'Moves the session on: the hub joins (`created` → `homey_connected`, naming its `homeyId`) and reports the reset applied (`configured` → `done`); the app may also finish a configured session. Any other step is 409.',
    description: whoMayCall,
  }),
  getSessionCommands: op({
    name: 'getSessionCommands',
    method: 'GET',
    path: '/:sessionId/command',
    scope: null,
    auth: false,
    params: SessionParams,
    response: Type.Array(SetupCommand),
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone'],
    summary: 'The session’s commands, oldest first, with the hub’s answers; the hub runs those whose `result` is `null`.',
    description: whoMayCall,
  }),
  createSessionCommand: op({
    name: 'createSessionCommand',
    method: 'POST',
    path: '/:sessionId/command',
    scope: null,
    auth: false,
    params: SessionParams,
    body: Type.Object({ manager: Name, command: Name, args: Type.Optional(FreeObject) }),
    response: SetupCommand,
    successStatus: 201,
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone', 'conflict'],
    summary: 'Asks the session’s hub to run `command` of its `manager` with `args`, once it is connected.',
    description: appOnly,
  }),
  updateSessionCommandResponse: op({
    name: 'updateSessionCommandResponse',
    method: 'PUT',
    path: '/:sessionId/command/:commandId',
    scope: null,
    auth: false,
    params: Type.Object({ sessionId: RecordId, commandId: RecordId }),
    body: Type.Object({ result: Type.Array(Type.Unknown(), { maxItems: 10 }) }),
    response: SetupCommand,
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone', 'conflict', 'forbidden'],
    summary: 'The hub’s answer to a command, `[error, result]`; a command is answered once.',
    description: hubOnly,
  }),
  loginByDelegationToken: op({
    name: 'loginByDelegationToken',
    method: 'POST',
    path: '/:sessionId/login-token',
    scope: null,
    auth: false,
    params: SessionParams,
    body: Type.Object({ data: Type.Object({ token: Type.String({ minLength: 1, maxLength: 4000 }) }) }),
    response: SetupSession,
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone', 'conflict', 'forbidden'],
    summary:
      'Hands the hub a delegation token of the session’s account (audience `homey`, `POST /cloud/delegation/token`) to sign its owner in with: `homey_connected` → `signed_in`.',
    description: appOnly,
  }),
  updateSessionHomey: op({
    name: 'updateSessionHomey',
    method: 'POST',
    path: '/:sessionId/reset',
    scope: null,
    auth: false,
    params: SessionParams,
    body: Type.Object({
      data: Type.Object({
        /** Start the hub afresh instead of keeping who else used it: its other users leave its cloud record. */
        factoryreset: Type.Optional(Type.Boolean()),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        /** The hub's claim token (the hub tells it the app), needed when nobody owns the hub yet. */
        token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        extraProperties: Type.Optional(SetupExtraProperties),
      }),
    }),
    response: SetupSession,
    errors: [
      'missing_token',
      'invalid_token',
      'not_found',
      'gone',
      'conflict',
      'forbidden',
      'missing_parameter',
      'invalid_parameter',
    ],
    summary:
      'Claims the session’s hub for its account (with the hub’s claim `token` unless the account owns it already), names it, and tells the hub what to become: `signed_in` → `configured`.',
    description: appOnly,
  }),
  getSessionVoice: op({
    name: 'getSessionVoice',
    method: 'GET',
    path: '/:sessionId/voice',
    scope: null,
    auth: false,
    params: SessionParams,
    query: Type.Object({ language: Type.String({ minLength: 2, maxLength: 10 }) }),
    response: Type.Object({
      language: Type.String(),
      voice: Type.String(),
      text: Type.String(),
      /** The sample as a WAV file (16-bit mono PCM), base64: the hub's voice chime, the words as `text`. */
      audio: Type.String(),
      mimeType: Type.Literal('audio/wav'),
    }),
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone'],
    summary: 'The hub’s voice for `language` with a sample sentence, for the app to play while the owner picks a language.',
    description: whoMayCall,
  }),
  getSessionBackups: op({
    name: 'getSessionBackups',
    method: 'GET',
    path: '/:sessionId/backup',
    scope: null,
    auth: false,
    params: SessionParams,
    response: Type.Array(Backup),
    errors: ['missing_token', 'invalid_token', 'not_found', 'gone', 'conflict'],
    summary: 'The complete backups of the session’s account, newest first: what the new hub may be restored from.',
    description: whoMayCall,
  }),
  getTimezone: op({
    name: 'getTimezone',
    method: 'GET',
    path: '/timezone',
    scope: null,
    response: Type.Object({
      timezone: Type.String(),
      /** `ip` when found from the caller's address; `default` (UTC) when the address has no place (a private network). */
      source: Type.Union([Type.Literal('ip'), Type.Literal('default')]),
      country: Nullable(Type.String()),
      city: Nullable(Type.String()),
    }),
    errors: ['rate_limited'],
    summary: 'The IANA time zone of the caller’s address, for the new hub’s clock (the cloud’s own IP-to-city database).',
    description: 'Needs no scope: it tells a signed-in caller about their own address only.',
  }),
} as const;
