import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, IdParams } from './options';

const op = hubManager('updates');

export const UpdateChannel = Type.Enum(['stable', 'rc', 'beta', 'alpha']);

export const Update = Type.Object({
  /** The version again: every listed item carries a string id. */
  id: Type.String(),
  version: Type.String(),
  channel: Type.String(),
  releaseDate: Type.String(),
  size: Type.Integer(),
  changelog: Type.Record(Type.String(), Type.String()),
});

export const UpdateState = Type.Object(
  {
    status: Type.Enum(['idle', 'downloading', 'installing', 'installed', 'aborted']),
    version: Type.Union([Type.Null(), Type.String()]),
    progress: Type.Number(),
    currentVersion: Type.String(),
    rebootRequired: Type.Boolean(),
  },
  { additionalProperties: true },
);

export const WhatsNew = Type.Object({
  id: Type.String(),
  version: Type.String(),
  title: Type.String(),
  body: Type.String(),
  date: Type.String(),
});

export const updatesOptions = {
  channel: { value: UpdateChannel, read: 'homey.system.readonly', write: 'homey.system' },
  autoupdate: { value: Type.Boolean(), read: 'homey.system.readonly', write: 'homey.system' },
  forceChannel: { value: Type.Boolean(), read: 'homey.system.readonly', write: 'homey.system' },
  updateNotifications: { value: Type.Boolean(), read: 'homey.system.readonly', write: 'homey.system' },
} as const;

export const updatesOperations = {
  getState: declareState(op),
  ...declareOptions(op, updatesOptions),
  getUpdates: op({
    name: 'getUpdates',
    method: 'GET',
    path: '/update',
    scope: 'homey.updates.readonly',
    query: Type.Object({ flags: Type.Optional(Type.String()), cache: Type.Optional(Type.Boolean()) }),
    response: Type.Array(Update),
    summary: "Updates newer than the installed version on the hub's channel, newest first.",
  }),
  installUpdate: op({
    name: 'installUpdate',
    summary: "Starts installing the newest update of the channel; answers the install's progress.",
    method: 'POST',
    path: '/update',
    scope: 'homey.updates',
    body: Type.Object({ reboot: Type.Optional(Type.Boolean()), silent: Type.Optional(Type.Boolean()) }),
    response: UpdateState,
  }),
  abortInstallUpdate: op({
    name: 'abortInstallUpdate',
    method: 'DELETE',
    path: '/update',
    // The wire lists no scope; stopping an update in progress is as much a change of the hub as starting it.
    scope: 'homey.updates',
    response: UpdateState,
    summary: 'Stops the update being downloaded or installed.',
  }),
  getWhatsNew: op({
    name: 'getWhatsNew',
    summary: "What's new in this version, without the entries already dismissed.",
    method: 'GET',
    path: '/whatsnew',
    scope: 'homey.updates.readonly',
    response: Type.Array(WhatsNew),
  }),
  dismissWhatsNew: op({
    name: 'dismissWhatsNew',
    summary: "Dismisses one what's-new entry so it is not shown again.",
    method: 'DELETE',
    path: '/whatsnew/:id',
    scope: 'homey.updates',
    params: IdParams,
  }),
} as const;

/** Wire events of the updates manager: the install's progress. */
export const updatesEvents = managerEvents('updates', { events: { ...optionEvents, 'update.update': UpdateState } });
