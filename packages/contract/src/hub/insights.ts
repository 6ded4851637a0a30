import { Type } from 'typebox';
import { DeletedItem, managerEvents } from '../events';
import { hubManager } from '../operation';
import { insightsExamples } from './examples';
import { declareState, IdParams } from './options';

const op = hubManager('insights');

/** The resolutions a log's entries are served at, each a window down-sampled to a bounded number of points. */
export const INSIGHTS_RESOLUTIONS = [
  'lastHour',
  'last6Hours',
  'last24Hours',
  'last7Days',
  'last14Days',
  'last31Days',
  'lastYear',
  'last2Years',
] as const;

/**
 * An insights log (seed section 3); its id is `<ownerUri>:<ownerId>`, e.g. `homey:device:<id>:measure_power`.
 * The older description named a log by `uri` (its owner's URI) and a short `id`: here they are `ownerUri` and
 * `ownerId`, and the calls naming a log by `/:uri/:id` take either that short id or the whole log id. No `uri`
 * field is served: clients derive an item's realtime URI from it, and one that is not `homey:log:<id>` breaks
 * their subscriptions (wire-protocol.md, hub HTTP conventions).
 */
export const InsightsLog = Type.Object(
  {
    id: Type.String(),
    ownerUri: Type.String({ description: "The owner's URI (the older description's `uri`)" }),
    ownerId: Type.String({ description: "The owner's short id of the log (the older description's `id`), e.g. `measure_power`" }),
    title: Type.String(),
    titleTrue: Type.Union([Type.String(), Type.Null()]),
    titleFalse: Type.Union([Type.String(), Type.Null()]),
    type: Type.Union([Type.Literal('number'), Type.Literal('boolean')]),
    units: Type.Union([Type.String(), Type.Null()]),
    decimals: Type.Union([Type.Number(), Type.Null()]),
    lastValue: Type.Union([Type.Number(), Type.Boolean(), Type.Null()]),
  },
  { additionalProperties: true },
);

export const InsightsEntries = Type.Object({
  resolution: Type.String(),
  start: Type.String(),
  end: Type.String(),
  step: Type.Number({ description: 'Milliseconds per point' }),
  updatesIn: Type.Number({ description: 'Milliseconds until the last point may change' }),
  lastValue: Type.Union([Type.Number(), Type.Boolean(), Type.Null()]),
  values: Type.Array(Type.Object({ t: Type.String(), v: Type.Union([Type.Number(), Type.Boolean(), Type.Null()]) })),
});

/** A log named the older way: its owner's URI and the short id (or the whole log id, which starts with that URI). */
const LogParams = Type.Object({ uri: Type.String({ minLength: 1 }), id: Type.String({ minLength: 1 }) });

export const insightsOperations = {
  getState: declareState(op),
  getLogs: op({
    name: 'getLogs',
    summary: 'Every Insights log: what is recorded, by whom, with its unit and type.',
    method: 'GET',
    path: '/log',
    scope: 'homey.insights.readonly',
    response: Type.Record(Type.String(), InsightsLog),
  }),
  getLog: op({
    name: 'getLog',
    summary: 'One Insights log.',
    method: 'GET',
    path: '/log/:id',
    scope: 'homey.insights.readonly',
    params: IdParams,
    response: InsightsLog,
  }),
  getLogEntries: op({
    name: 'getLogEntries',
    examples: insightsExamples.getLogEntries,
    method: 'GET',
    path: '/log/:uri/:id/entry',
    scope: 'homey.insights.readonly',
    params: LogParams,
    query: Type.Object({ resolution: Type.Optional(Type.Enum([...INSIGHTS_RESOLUTIONS])) }),
    response: InsightsEntries,
    summary: 'Entries of a log over a window, averaged (numbers) or last value (booleans) per bucket.',
  }),
  deleteLogEntries: op({
    name: 'deleteLogEntries',
    summary: 'Deletes the recorded values of a log, keeping the log.',
    method: 'DELETE',
    path: '/log/:uri/:id/entry',
    scope: 'homey.insights',
    params: LogParams,
  }),
  deleteLog: op({
    name: 'deleteLog',
    summary: 'Deletes an insights log and all its entries.',
    method: 'DELETE',
    path: '/log/:uri/:id',
    scope: 'homey.insights',
    params: LogParams,
  }),
  deleteLogs: op({
    name: 'deleteLogs',
    method: 'DELETE',
    path: '/log',
    scope: 'homey.insights',
    summary: 'Deletes every log and its entries.',
  }),
  getStorageInfo: op({
    name: 'getStorageInfo',
    summary: 'How much storage Insights logs take.',
    method: 'GET',
    path: '/storage',
    scope: 'homey.insights.readonly',
    response: Type.Object({ logs: Type.Integer(), entries: Type.Integer(), size: Type.Integer({ description: 'Bytes' }) }),
  }),
} as const;

/** Wire events of the insights manager. */
export const insightsEvents = managerEvents('insights', {
  events: { 'log.update': InsightsLog, 'log.delete': DeletedItem },
});
