import { type Static, Type } from 'typebox';
import { ANY_EVENT, entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, IdParams, OpenObject } from './options';

const op = hubManager('apps');

/** An installed app (seed section 3): manifest facts plus its run state. Open-ended: support links and more ride along. */
export const HubApp = Type.Object(
  {
    id: Type.String(),
    sdk: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
    name: Type.String(),
    origin: Type.Union([
      Type.Literal('appstore'),
      Type.Literal('devkit_run'),
      Type.Literal('devkit_install'),
      Type.Literal('unknown'),
    ]),
    channel: Type.Union([Type.Literal('stable'), Type.Literal('beta'), Type.Literal('alpha')]),
    version: Type.String(),
    compatibility: Type.String(),
    icon: Type.String(),
    iconObj: Type.Object({ id: Type.String(), url: Type.String() }),
    author: Type.Object({ name: Type.String(), email: Type.Optional(Type.String()) }),
    permissions: Type.Array(Type.String()),
    images: Type.Object({ small: Type.String(), large: Type.String() }),
    session: Type.Union([Type.String(), Type.Null()]),
    ready: Type.Boolean(),
    state: Type.Union([Type.Literal('stopped'), Type.Literal('starting'), Type.Literal('running'), Type.Literal('stopping')]),
    crashed: Type.Boolean(),
    crashedMessage: Type.Union([Type.String(), Type.Null()]),
    exitCode: Type.Union([Type.Integer(), Type.Null()]),
    exitSignal: Type.Union([Type.String(), Type.Null()]),
    exitCount: Type.Integer(),
    settings: Type.Boolean(),
    /** The app's settings as a form: each setting's declaration (id, type, label, hint, min, max, values) in the hub's language. */
    settingsForm: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), type: Type.String(), label: Type.String() }, { additionalProperties: true })),
    ),
    brandColor: Type.String(),
    hasDrivers: Type.Boolean(),
    usage: Type.Object({ cpu: Type.Number(), mem: Type.Number() }),
    updateAvailable: Type.Union([Type.Object({ version: Type.String(), permissions: Type.Array(Type.String()) }), Type.Null()]),
    enabled: Type.Boolean(),
    autoupdate: Type.Boolean(),
  },
  { additionalProperties: true },
);

/** An app as the hub serves it; extra fields (support links, builtin) ride along. */
export type AppItem = Static<typeof HubApp> & { [key: string]: unknown };

const SettingParams = Type.Object({ id: Type.String({ minLength: 1 }), name: Type.String({ minLength: 1, maxLength: 200 }) });
const Usage = Type.Object({ cpu: Type.Number(), mem: Type.Number() });

export const appsManagerOperations = {
  getState: declareState(op),
  getApps: op({
    name: 'getApps',
    summary: 'The installed apps, by id, with their version and run state.',
    method: 'GET',
    path: '/app',
    scope: 'homey.app.readonly',
    response: Type.Record(Type.String(), HubApp),
  }),
  getApp: op({
    name: 'getApp',
    summary: 'One installed app: version, run state, permissions and settings pages.',
    method: 'GET',
    path: '/app/:id',
    scope: 'homey.app.readonly',
    params: IdParams,
    response: HubApp,
  }),
  installFromAppStore: op({
    name: 'installFromAppStore',
    method: 'POST',
    path: '/store',
    scope: 'homey.app',
    body: Type.Object({
      id: Type.String({ minLength: 1 }),
      channel: Type.Optional(Type.Union([Type.Literal('stable'), Type.Literal('beta'), Type.Literal('alpha')])),
      waitForInstall: Type.Optional(Type.Boolean()),
      version: Type.Optional(Type.String()),
    }),
    response: HubApp,
    summary: 'Installs (or updates) an app from the catalogue of app packages.',
  }),
  uninstallApp: op({
    name: 'uninstallApp',
    method: 'DELETE',
    path: '/app/:id',
    scope: 'homey.app',
    params: IdParams,
    query: Type.Object({ purgeSettings: Type.Optional(Type.Boolean()) }),
    summary: 'Uninstalls an app and removes its devices; `purgeSettings` also forgets its settings.',
  }),
  updateApp: op({
    name: 'updateApp',
    summary: "Changes an installed app's options.",
    method: 'PUT',
    path: '/app/:id',
    scope: 'homey.app',
    params: IdParams,
    bodyRoot: 'app',
    body: Type.Object({ autoupdate: Type.Optional(Type.Boolean()) }, { additionalProperties: true }),
    response: HubApp,
  }),
  enableApp: op({
    name: 'enableApp',
    summary: 'Switches an app on: it starts and its devices work again.',
    method: 'PUT',
    path: '/app/:id/enable',
    scope: 'homey.app',
    params: IdParams,
    response: HubApp,
  }),
  disableApp: op({
    name: 'disableApp',
    summary: 'Switches an app off: it stops and its devices become unavailable.',
    method: 'PUT',
    path: '/app/:id/disable',
    scope: 'homey.app',
    params: IdParams,
    response: HubApp,
  }),
  restartApp: op({
    name: 'restartApp',
    summary: 'Stops and starts an app.',
    method: 'POST',
    path: '/app/:id/restart',
    scope: 'homey.app',
    params: IdParams,
    response: HubApp,
  }),
  garbageCollectApp: op({
    name: 'garbageCollectApp',
    method: 'POST',
    path: '/app/:id/gc',
    scope: 'homey.app',
    params: IdParams,
    response: Usage,
    summary: "Runs the app's garbage collector; answers its usage afterwards.",
  }),
  getAppLocales: op({
    name: 'getAppLocales',
    summary: 'The translations an app ships, for its settings pages.',
    method: 'GET',
    path: '/app/:id/locale',
    scope: 'homey.app.readonly',
    params: IdParams,
    response: OpenObject,
  }),
  getAppUsage: op({
    name: 'getAppUsage',
    summary: 'How much memory and processor time an app uses.',
    method: 'GET',
    path: '/app/:id/usage',
    scope: 'homey.app.readonly',
    params: IdParams,
    response: Usage,
  }),
  getAppSettings: op({
    name: 'getAppSettings',
    summary: 'Every setting an app stored.',
    method: 'GET',
    path: '/app/:id/setting',
    scope: 'homey.app.control',
    params: IdParams,
    response: OpenObject,
  }),
  getAppSetting: op({
    name: 'getAppSetting',
    summary: 'One setting of an app, by name.',
    method: 'GET',
    path: '/app/:id/setting/:name',
    scope: 'homey.app.control',
    params: SettingParams,
    response: Type.Unknown(),
  }),
  setAppSetting: op({
    name: 'setAppSetting',
    summary: 'Stores one setting of an app; the app hears the change.',
    method: 'PUT',
    path: '/app/:id/setting/:name',
    scope: 'homey.app.control',
    params: SettingParams,
    body: Type.Object({ value: Type.Unknown() }),
    response: Type.Unknown(),
  }),
  unsetAppSetting: op({
    name: 'unsetAppSetting',
    summary: 'Deletes one setting of an app; the app hears the change.',
    method: 'DELETE',
    path: '/app/:id/setting/:name',
    scope: 'homey.app.control',
    params: SettingParams,
  }),
  getAppStd: op({
    name: 'getAppStd',
    method: 'POST',
    path: '/app/:id/crashlog',
    scope: 'homey.app.readonly',
    params: IdParams,
    body: Type.Object({ message: Type.String({ minLength: 1, maxLength: 10_000 }) }),
    response: Type.Object({ to: Type.String(), lines: Type.Integer() }),
    errors: ['offline', 'not_found'],
    summary: "E-mails the app's author the message with the app's recent output and the hub's facts, through the cloud.",
  }),
} as const;

/** Wire events of the apps manager; an app's own URI also carries the events the app sends its clients. */
export const appsEvents = managerEvents('apps', {
  events: {
    ...entityEvents('app', HubApp),
    /** A step of a simulated app failed (its message); the hub goes on. */
    'app.error': Type.String(),
  },
  items: {
    app: {
      'setting.set': Type.Object({ name: Type.String(), value: Type.Unknown() }),
      'setting.unset': Type.Object({ name: Type.String() }),
      /** Events an app sends its own clients (`this.homey.api.realtime(event, data)`). */
      [ANY_EVENT]: Type.Unknown(),
    },
  },
});
