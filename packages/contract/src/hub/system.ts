import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, Nullable, OpenObject } from './options';

const op = hubManager('system');

/** Answer of `GET /api/manager/system/ping`; clients read the `X-Homey-ID` header and only need a body that is not `false`. */
export const PingResult = Type.Object({ id: Type.String(), version: Type.String() });

export const SystemInfo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    model: Type.String(),
    modelName: Type.String(),
    platform: Type.Union([Type.Literal('local'), Type.Literal('cloud')]),
    platformVersion: Type.Number(),
    softwareVersion: Type.String(),
    language: Type.String(),
    uptime: Type.Number(),
    bootTime: Type.String(),
    nodeVersion: Type.String(),
    videoCoreUnderVoltageCurrentlyRatio: Type.Optional(Type.Number()),
    /** Hearth: what the owner's subscriptions unlock on the hub (the ping's `X-Homey-Tier` says the tier too). */
    tier: Type.Optional(Type.String({ description: 'The tier the hub announces: free, plus, premium, or a configured one' })),
    cloudBackups: Type.Optional(
      Type.Boolean({ description: "Whether the owner's subscriptions let the hub keep its backups in the cloud" }),
    ),
  },
  { additionalProperties: true },
);

export const MemoryInfo = Type.Object(
  {
    total: Type.Integer(),
    free: Type.Integer(),
    swap: Type.Object({ total: Type.Integer(), free: Type.Integer() }),
    types: Type.Record(Type.String(), Type.Object({ size: Type.Integer() })),
  },
  { additionalProperties: true },
);
export const StorageInfo = Type.Object(
  {
    total: Type.Integer(),
    free: Type.Integer(),
    types: Type.Record(Type.String(), Type.Object({ size: Type.Integer() })),
  },
  { additionalProperties: true },
);
export const Total = Type.Object({ total: Type.Integer(), used: Type.Integer(), free: Type.Integer() });

export const systemOptions = {
  forwardedPort: {
    value: Nullable(Type.Integer({ minimum: 1, maximum: 65535 })),
    read: 'homey.system.readonly',
    write: 'homey.system',
  },
} as const;

const reboot = (name: string, path: string, summary: string) =>
  ({ name, method: 'POST', path, scope: 'homey.system', summary }) as const;

export const systemOperations = {
  getState: declareState(op),
  ...declareOptions(op, systemOptions),
  ping: op({
    name: 'ping',
    method: 'GET',
    path: '/ping',
    scope: null,
    auth: false,
    query: Type.Object({ id: Type.Optional(Type.String({ description: 'The hub id the caller expects' })) }),
    response: PingResult,
    summary: 'Answers with the hub id, version and tier in the X-Homey-ID, X-Homey-Version and X-Homey-Tier headers.',
    description:
      'Needs no session: clients find the hub with it before they sign in. It answers only what the hub announces on the network anyway (its id, version and tier) and changes nothing.',
  }),
  getInfo: op({
    name: 'getInfo',
    method: 'GET',
    path: '/',
    scope: 'homey.system.readonly',
    response: SystemInfo,
    summary: 'Facts about the hub: model, versions, uptime.',
  }),
  getSystemName: op({
    name: 'getSystemName',
    summary: "The hub's name as people see it.",
    method: 'GET',
    path: '/name',
    scope: 'homey.system.readonly',
    response: Type.String(),
  }),
  setSystemName: op({
    name: 'setSystemName',
    summary: 'Renames the hub; answers the new name.',
    method: 'PUT',
    path: '/name',
    scope: 'homey.system',
    body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.String(),
  }),
  reboot: op(reboot('reboot', '/reboot', 'Restarts the hub.')),
  rebootRecovery: op(reboot('rebootRecovery', '/rebootrecovery', 'Restarts the hub into recovery mode.')),
  rebootOTA: op(reboot('rebootOTA', '/reboot-ota', 'Restarts the hub to apply a downloaded update.')),
  getMemoryInfo: op({
    name: 'getMemoryInfo',
    summary: "The hub's memory: total, free and swap, and what its process takes (resident, heap, external).",
    method: 'GET',
    path: '/memory',
    scope: 'homey.system.readonly',
    response: MemoryInfo,
  }),
  getMemoryInfoTotal: op({
    name: 'getMemoryInfoTotal',
    summary: "Only the totals of the hub's memory: total, used and free bytes.",
    method: 'GET',
    path: '/memory/total',
    scope: 'homey.system.readonly',
    response: Total,
  }),
  getStorageInfo: op({
    name: 'getStorageInfo',
    summary: "Disk space of the hub's data volume: total and free, and what the database, backups and other data take.",
    method: 'GET',
    path: '/storage',
    scope: 'homey.system.readonly',
    response: StorageInfo,
  }),
  getStorageInfoTotal: op({
    name: 'getStorageInfoTotal',
    summary: "Only the totals of the hub's disk space: total, used and free bytes.",
    method: 'GET',
    path: '/storage/total',
    scope: 'homey.system.readonly',
    response: Total,
  }),
  getJournal: op({
    name: 'getJournal',
    method: 'GET',
    path: '/journalctl',
    scope: 'homey.system.readonly',
    query: Type.Object({ lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }),
    response: Type.Array(Type.String()),
    summary: "The hub's most recent log lines.",
  }),
  sendLog: op({
    name: 'sendLog',
    method: 'POST',
    path: '/journalctl',
    scope: 'homey.system.readonly',
    body: Type.Object({ append: Type.Optional(Type.String({ maxLength: 10_000 })) }),
    response: Type.String(),
    summary: 'Assembles and stores a diagnostic report of the hub (versions, apps, recent log lines); answers its id.',
  }),
  setDebug: op({
    name: 'setDebug',
    method: 'PUT',
    path: '/debug',
    scope: 'homey.system',
    body: Type.Object({ namespace: Type.String({ maxLength: 500 }) }),
    response: Type.Object({ namespace: Type.String() }),
    summary: 'Newer form: the debug namespaces to log (`*`, `homey:manager:*`, empty for none).',
  }),
  setDebugMask: op({
    name: 'setDebugMask',
    method: 'PUT',
    path: '/debug/:mask',
    scope: 'homey.system',
    params: Type.Object({ mask: Type.String({ minLength: 1, maxLength: 500 }) }),
    response: Type.Object({ namespace: Type.String() }),
    summary: 'Older form of setDebug: the mask in the path.',
    deprecated: true,
  }),
  enableWifi: op({
    name: 'enableWifi',
    summary: "Turns the hub's Wi-Fi on (simulated: the setting is kept and shown in the state).",
    method: 'POST',
    path: '/enable-wifi',
    scope: 'homey.system',
    response: OpenObject,
  }),
  disableWifi: op({
    name: 'disableWifi',
    summary: "Turns the hub's Wi-Fi off (simulated: the setting is kept and shown in the state).",
    method: 'POST',
    path: '/disable-wifi',
    scope: 'homey.system',
    response: OpenObject,
  }),
  startProfile: op({
    name: 'startProfile',
    summary: "Starts measuring the hub's event-loop delay for a while; answers when it started and for how long.",
    method: 'POST',
    path: '/profile/start',
    scope: 'homey.system',
    private: true,
    body: Type.Object({ duration: Type.Optional(Type.Number({ minimum: 100, maximum: 600_000 })) }),
    response: OpenObject,
  }),
  stopProfile: op({
    name: 'stopProfile',
    summary: 'Stops the running profile and answers its event-loop delay figures.',
    method: 'POST',
    path: '/profile/stop',
    scope: 'homey.system',
    private: true,
    response: OpenObject,
  }),
} as const;

/** Wire events of the system manager. */
export const systemEvents = managerEvents('system', {
  events: {
    ...optionEvents,
    reboot: Type.Object({ mode: Type.String(), requestedAt: Type.String() }),
    /** The hub runs again after a reboot. */
    ready: Type.Object({ mode: Type.String() }),
  },
});
