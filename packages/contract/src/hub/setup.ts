import { type TSchema, Type } from 'typebox';
import { hubManager } from '../operation';

const op = hubManager('setup');

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Where the hub stands in the cloud setup session it joined. */
export const HubSetupState = Type.Object({
  /** The session joined, until the setup is done (then `null` again). */
  sessionId: Nullable(Type.String()),
  /** The session's state as the hub last read it (the cloud's `SetupState`). */
  state: Nullable(Type.String()),
  /** Commands of the app the hub answered in this session. */
  commandsAnswered: Type.Integer(),
  /** The backup the reset asked for, while it is being restored. */
  restoring: Nullable(Type.String()),
  /** Whether the factory reset the session asked for waits for the hub to start afresh. */
  resetting: Type.Boolean(),
  /** Why the hub last failed to reach or follow the session. */
  lastError: Nullable(Type.String()),
});

export const setupManagerOperations = {
  getState: op({
    name: 'getState',
    method: 'GET',
    path: '/state',
    scope: 'homey.system.readonly',
    response: HubSetupState,
    summary: 'The cloud setup session the hub follows, if any, and how far it got.',
  }),
  joinSession: op({
    name: 'joinSession',
    method: 'POST',
    path: '/session',
    scope: 'homey.system',
    body: Type.Object({
      sessionId: Type.String({ pattern: '^[0-9a-f]{24}$' }),
      /** The session's `hubToken`, which the app got when it opened the session. */
      token: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._~+/=-]+$' }),
    }),
    response: HubSetupState,
    errors: ['forbidden', 'unavailable'],
    summary:
      'Joins a cloud setup session (`/setup`) the app opened: the hub follows it until done — runs the app’s commands, signs its owner in, applies the reset (a factory reset or a restore of the backup it names, then the name, language and time zone) — across the restart either needs.',
  }),
} as const;
