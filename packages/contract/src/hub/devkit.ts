import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState } from './options';

const op = hubManager('devkit');

export const DevkitSession = Type.Object(
  { sessionId: Type.String(), appId: Type.String(), origin: Type.String() },
  { additionalProperties: true },
);

export const devkitOperations = {
  getState: declareState(op),
  installApp: op({
    name: 'installApp',
    method: 'POST',
    path: '/app',
    scope: 'homey.app',
    body: Type.Object({
      manifest: Type.Object({}, { additionalProperties: true }),
      clean: Type.Optional(Type.Boolean()),
      run: Type.Optional(Type.Boolean()),
    }),
    response: DevkitSession,
    summary: 'Runs (or, with run false, installs) an app from its manifest; `clean` forgets its settings first.',
  }),
  runApp: op({
    name: 'runApp',
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
    method: 'DELETE',
    path: '/app/:sessionId',
    scope: 'homey.app',
    params: Type.Object({ sessionId: Type.String({ minLength: 1 }) }),
  }),
  stopApp: op({
    name: 'stopApp',
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
    response: Type.Array(Type.Object({ t: Type.String(), stream: Type.String(), line: Type.String() })),
  }),
} as const;
