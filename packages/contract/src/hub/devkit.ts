import { Type } from 'typebox';
import { managerEvents } from '../events';
import { APP_MANIFEST_LIMITS, FreeFormObject } from '../limits';
import { hubManager } from '../operation';
import { declareState } from './options';

const op = hubManager('devkit');

/** How long a client waits for a devkit run or install (the app is unpacked, checked and started). */
export const DEVKIT_RUN_TIMEOUT_MS = 300_000;

export const DevkitSession = Type.Object(
  { sessionId: Type.String(), appId: Type.String(), origin: Type.String() },
  { additionalProperties: true },
);

/**
 * One line of a devkit session's app output, in the fields the ecosystem's devkit clients read (`session`, `id`,
 * `type`, `chunk`: the line with its newline, which older clients turn into a Buffer) and Hearth's own (`t`,
 * `stream`, `line`).
 */
export const DevkitStd = Type.Object({
  session: Type.String(),
  id: Type.String(),
  type: Type.Union([Type.Literal('stdout'), Type.Literal('stderr')]),
  chunk: Type.String(),
  t: Type.String(),
  stream: Type.Union([Type.Literal('stdout'), Type.Literal('stderr')]),
  line: Type.String(),
});

export const devkitOperations = {
  getState: declareState(op),
  installApp: op({
    name: 'installApp',
    timeoutMs: DEVKIT_RUN_TIMEOUT_MS,
    method: 'POST',
    path: '/app',
    scope: 'homey.app',
    body: Type.Object({
      manifest: FreeFormObject(APP_MANIFEST_LIMITS),
      clean: Type.Optional(Type.Boolean()),
      run: Type.Optional(Type.Boolean()),
    }),
    response: DevkitSession,
    summary: 'Runs (or, with run false, installs) an app from its manifest; `clean` forgets its settings first.',
  }),
  runApp: op({
    name: 'runApp',
    timeoutMs: DEVKIT_RUN_TIMEOUT_MS,
    method: 'POST',
    path: '/',
    scope: 'homey.app',
    response: DevkitSession,
    summary:
      'The older form of running an app: a multipart/form-data body with the app archive (field `app`, a tar.gz with ' +
      '`app.json` at its root or in one top folder), `env` (a JSON object of strings), `debug` and `purgeSettings` ' +
      '(`true`/`false`). The manifest is checked as `installApp` checks it.',
  }),
  uninstallApp: op({
    name: 'uninstallApp',
    summary: 'Removes an app installed from the developer tools and ends its session.',
    method: 'DELETE',
    path: '/app/:sessionId',
    scope: 'homey.app',
    params: Type.Object({ sessionId: Type.String({ minLength: 1 }) }),
  }),
  stopApp: op({
    name: 'stopApp',
    summary: 'Stops a developer session: an app run from the tools ends, an installed one stays.',
    method: 'DELETE',
    path: '/:session',
    scope: 'homey.app',
    params: Type.Object({ session: Type.String({ minLength: 1 }) }),
  }),
  getAppStdOut: op({
    name: 'getAppStdOut',
    method: 'GET',
    path: '/std/:session',
    scope: 'homey.app',
    params: Type.Object({ session: Type.String({ minLength: 1 }) }),
    response: Type.Array(DevkitStd),
    summary:
      "The session's app's recent output, oldest first. Each line is also sent live as the `std` event on " +
      "`homey:manager:devkit` to the session's user, in the same shape; a client showing both drops the ids it showed.",
  }),
} as const;

/** Wire events of the devkit manager: each line of a session's app's output, live, to the session's user. */
export const devkitEvents = managerEvents('devkit', { events: { std: DevkitStd } });
