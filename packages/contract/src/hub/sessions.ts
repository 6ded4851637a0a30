import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';

const op = hubManager('sessions');

/** A session of the hub: a login through the cloud (OAUTH), an app (APP) or a personal access token (PAT). */
export const Session = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('OAUTH'), Type.Literal('APP'), Type.Literal('PAT')]),
    userId: Type.String(),
    name: Type.String(),
    agent: Type.Union([Type.String(), Type.Null()]),
    clientName: Type.Union([Type.String(), Type.Null()]),
    /** Requested scopes; `null` when the session was created without any. */
    scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
    /** Requested scopes intersected with the scopes the user's role may hold. */
    intersectedScopes: Type.Array(Type.String()),
    createdAt: Type.String(),
    expiresAt: Type.Union([Type.String(), Type.Null()]),
    lastUsed: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: true },
);

export const SessionsState = Type.Object({ sessionCount: Type.Number() }, { additionalProperties: true });

const SessionId = Type.Object({ id: Type.String({ minLength: 1 }) });

export const sessionsOperations = {
  getState: op({
    name: 'getState',
    summary: 'How many sessions the hub has.',
    method: 'GET',
    path: '/state',
    scope: 'homey.system.readonly',
    response: SessionsState,
  }),
  getSessionMe: op({
    name: 'getSessionMe',
    method: 'GET',
    path: '/session/me',
    scope: null,
    response: Session,
    summary: 'The session of the caller, with the scopes it may use (`intersectedScopes`).',
    description:
      "Every session may ask about itself, whatever its scopes: the answer is the caller's own session (never its token) and the call changes nothing.",
  }),
  getSessions: op({
    name: 'getSessions',
    method: 'GET',
    path: '/session',
    scope: 'homey.user.readonly',
    response: Type.Record(Type.String(), Session),
    summary: "Sessions keyed by id: every user's for owners and managers, the caller's own for everyone else.",
  }),
  getSession: op({
    name: 'getSession',
    summary: 'One session: its user, type, client and scopes.',
    method: 'GET',
    path: '/session/:id',
    scope: 'homey.user.readonly',
    params: SessionId,
    response: Session,
    errors: ['not_found'],
  }),
  deleteSession: op({
    name: 'deleteSession',
    method: 'DELETE',
    path: '/session/:id',
    scope: 'homey.user.self',
    params: SessionId,
    errors: ['not_found'],
    summary: "Revokes a session: the caller's own, or any user's for owners and managers holding `homey.user`.",
  }),
} as const;

/** Wire events of the sessions manager. */
export const sessionsEvents = managerEvents('sessions', { events: entityEvents('session', Session) });
