import { type Static, Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { flowExamples } from './examples';
import { declareState, IdParams, Nullable, OpenObject, UuidKeyed } from './options';

const op = hubManager('flow');

/**
 * The longest delay or duration an action may have, in seconds: a year. Anything longer is no home automation, and
 * much longer is past what the hub's scheduler and clients can represent as a date.
 */
export const FLOW_DELAY_MAX_SECONDS = 366 * 24 * 3600;

/**
 * Duration or delay of an action: `null`, or a number (as a string, plain decimal) of seconds (`multiplier` 1) or
 * minutes (60), at most {@link FLOW_DELAY_MAX_SECONDS} in all (the hub checks the product when a flow is saved).
 */
export const FlowDelay = Type.Unsafe<{ multiplier: 1 | 60; number: string } | null>({
  type: ['object', 'null'],
  required: ['multiplier', 'number'],
  properties: {
    multiplier: { enum: [1, 60], description: '1 for seconds, 60 for minutes' },
    number: {
      type: 'string',
      pattern: '^[0-9]{1,8}(\\.[0-9]{1,3})?$',
      description: 'A plain decimal number of seconds or minutes, e.g. "5" or "0.5"; at most a year in all',
    },
  },
  additionalProperties: false,
});

/**
 * A card in a flow: its owner `uri` and its `id` (the seed's form), or, as flow card lists name cards, only a
 * full `id` of `<owner uri>:<card id>`; the hub stores the seed's form either way.
 */
const cardFields = {
  uri: Type.Optional(Type.String({ minLength: 1 })),
  id: Type.String({ minLength: 1 }),
  args: Type.Optional(OpenObject),
  droptoken: Type.Optional(Nullable(Type.String())),
};

export const FlowTrigger = Type.Object(cardFields);
export const FlowCondition = Type.Object({
  ...cardFields,
  group: Type.Optional(Type.Enum(['group1', 'group2', 'group3'])),
  inverted: Type.Optional(Type.Boolean({ default: false })),
});
export const FlowAction = Type.Object({
  ...cardFields,
  group: Type.Optional(Type.Enum(['then', 'else'])),
  duration: Type.Optional(FlowDelay),
  delay: Type.Optional(FlowDelay),
});

const FolderRef = Nullable(Type.String());

/**
 * What a flow does with a trigger that arrives while it runs (a run lasts until its delayed actions ran):
 * `parallel` (the default) starts another run, up to `max`; `single` ignores the trigger; `restart` stops the
 * running run (and its delayed actions) and starts anew; `queued` runs it after the running one, up to `max`
 * waiting. Beyond the ecosystem's flows, which always run in parallel.
 */
const runModeFields = {
  mode: Type.Optional(Type.Enum(['single', 'restart', 'queued', 'parallel'])),
  max: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'Runs at once (parallel) or waiting (queued); 20 by default' }),
  ),
};

export const FlowCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  enabled: Type.Optional(Type.Boolean()),
  folder: Type.Optional(FolderRef),
  order: Type.Optional(Type.Integer()),
  trigger: FlowTrigger,
  conditions: Type.Array(FlowCondition, { maxItems: 100 }),
  actions: Type.Array(FlowAction, { maxItems: 100 }),
  ...runModeFields,
});
export type FlowCreateBody = Static<typeof FlowCreate>;

export const FlowUpdate = Type.Partial(FlowCreate);

const NodeKeys = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 });

/**
 * A node of an advanced flow, keyed by a uuid in the flow's `cards` map. Card nodes (`trigger`, `condition`,
 * `action`) name their card by `ownerUri` and `id`; `start` starts the flow when it is started by a call, `delay`
 * waits `args.delay` (`{number, multiplier}`), `any` goes on with the first branch that arrives, `all` waits for
 * every input (`input`: `<source key>::<port>`), `note` is a comment. Edges are stored on their source node, as
 * the keys of the nodes they lead to: `outputSuccess` and `outputError` (actions), `outputTrue` and `outputFalse`
 * (conditions), `outputSuccess` (the others).
 */
export const AdvancedFlowCard = Type.Object(
  {
    type: Type.Enum(['trigger', 'condition', 'action', 'start', 'delay', 'any', 'all', 'note']),
    x: Type.Number(),
    y: Type.Number(),
    id: Type.Optional(Type.String()),
    ownerUri: Type.Optional(Type.String()),
    args: Type.Optional(OpenObject),
    droptoken: Type.Optional(Nullable(Type.String())),
    inverted: Type.Optional(Type.Boolean()),
    outputSuccess: Type.Optional(NodeKeys),
    outputError: Type.Optional(NodeKeys),
    outputTrue: Type.Optional(NodeKeys),
    outputFalse: Type.Optional(NodeKeys),
    input: Type.Optional(NodeKeys),
  },
  { additionalProperties: true },
);

export type AdvancedFlowNode = Static<typeof AdvancedFlowCard>;

export const AdvancedFlowCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  enabled: Type.Optional(Type.Boolean()),
  folder: Type.Optional(FolderRef),
  cards: UuidKeyed(AdvancedFlowCard),
  ...runModeFields,
});
export type AdvancedFlowCreateBody = Static<typeof AdvancedFlowCreate>;
export const AdvancedFlowUpdate = Type.Partial(AdvancedFlowCreate);

export const FlowFolderCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  parent: Type.Optional(FolderRef),
  order: Type.Optional(Type.Integer()),
});
export const FlowFolderUpdate = Type.Partial(FlowFolderCreate);

/** What every stored flow and advanced flow answers with, besides its cards. */
const flowFields = {
  id: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  folder: FolderRef,
  order: Type.Integer(),
  /** A card or token it uses is missing. */
  broken: Type.Boolean(),
  /** Its trigger is the programmatic one, so `POST …/trigger` may start it. */
  triggerable: Type.Boolean(),
};
/**
 * A card as a flow answers it: in the form it was written in, so clients read back what they sent. The owner `uri`
 * and the card's own `id` (Hearth's clients), the fully qualified `id` `<owner uri>:<card id>` alone (the
 * ecosystem's current Web API), or both together. Open to what the card holds.
 */
const open = { additionalProperties: true } as const;
export const Flow = Type.Object(
  {
    ...flowFields,
    trigger: Type.Object(FlowTrigger.properties, open),
    conditions: Type.Array(Type.Object(FlowCondition.properties, open)),
    actions: Type.Array(Type.Object(FlowAction.properties, open)),
  },
  open,
);
export const AdvancedFlow = Type.Object({ ...flowFields, cards: UuidKeyed(AdvancedFlowCard) }, open);
export const FlowFolder = Type.Object({ id: Type.String(), name: Type.String(), order: Type.Integer(), parent: FolderRef });
/**
 * A flow card as listed: `id` is `<owner uri>:<card id>` (the list's key) and the seed's `uri` is sent as
 * `ownerUri`, since clients read an item's `uri` as its own realtime URI (wire-protocol.md).
 */
export const FlowCard = Type.Object(
  { id: Type.String(), ownerUri: Type.String(), title: Type.String() },
  { additionalProperties: true },
);

const CardParams = Type.Object({ uri: Type.String({ minLength: 1 }), id: Type.String({ minLength: 1 }) });
const RunBody = Type.Object({
  args: Type.Optional(OpenObject),
  tokens: Type.Optional(OpenObject),
  state: Type.Optional(OpenObject),
  droptoken: Type.Optional(Type.String()),
});
const TriggerBody = Type.Object({ state: Type.Optional(OpenObject) }, { additionalProperties: true });

/** One run of a flow: what started it, each step (conditions with why they failed, actions, delays), how it ended. */
export const FlowTrace = Type.Object(
  {
    id: Type.String(),
    flowId: Type.String(),
    flowType: Type.Enum(['flow', 'advancedflow']),
    flowName: Type.String(),
    startedAt: Type.String(),
    finishedAt: Nullable(Type.String()),
    status: Type.Enum(['running', 'waiting', 'completed', 'conditions_failed', 'failed', 'skipped', 'restarted', 'cancelled']),
    trigger: OpenObject,
    mode: Type.Optional(Type.String()),
    steps: Type.Array(OpenObject),
  },
  { additionalProperties: true },
);

/** A delayed action (or advanced-flow delay) waiting for its time: a job of the hub's durable scheduler. */
export const PendingFlowAction = Type.Object({
  id: Type.String(),
  flowId: Type.String(),
  flowType: Type.Enum(['flow', 'advancedflow']),
  flowName: Type.String(),
  runId: Type.String(),
  card: Nullable(Type.String()),
  node: Nullable(Type.String()),
  dueAt: Type.String(),
});

export const flowOperations = {
  getState: declareState(op),
  getFlows: op({
    name: 'getFlows',
    examples: flowExamples.getFlows,
    summary: 'Every standard flow, by id.',
    method: 'GET',
    path: '/flow',
    scope: 'homey.flow.readonly',
    response: Type.Record(Type.String(), Flow),
  }),
  getFlow: op({
    name: 'getFlow',
    summary: 'One standard flow: its trigger, conditions and actions.',
    method: 'GET',
    path: '/flow/:id',
    scope: 'homey.flow.readonly',
    params: IdParams,
    response: Flow,
  }),
  createFlow: op({
    name: 'createFlow',
    examples: flowExamples.createFlow,
    summary: 'Creates a standard flow (when, and, then).',
    method: 'POST',
    path: '/flow',
    scope: 'homey.flow',
    body: FlowCreate,
    bodyRoot: 'flow',
    response: Flow,
  }),
  updateFlow: op({
    name: 'updateFlow',
    summary: 'Changes a standard flow: its cards, name, folder or whether it is on.',
    method: 'PUT',
    path: '/flow/:id',
    scope: 'homey.flow',
    params: IdParams,
    body: FlowUpdate,
    bodyRoot: 'flow',
    response: Flow,
  }),
  deleteFlow: op({
    name: 'deleteFlow',
    summary: 'Deletes a flow; it will not run again.',
    method: 'DELETE',
    path: '/flow/:id',
    scope: 'homey.flow',
    params: IdParams,
  }),
  testFlow: op({
    name: 'testFlow',
    summary: 'Runs a flow that is not saved, with the given tokens; its steps arrive over the socket.',
    method: 'POST',
    path: '/flow/test',
    scope: 'homey.flow',
    body: Type.Object({ flow: FlowCreate, tokens: OpenObject, sessionId: Type.String({ minLength: 1 }) }),
    response: OpenObject,
  }),
  triggerFlow: op({
    name: 'triggerFlow',
    examples: flowExamples.triggerFlow,
    summary: 'Starts a standard flow now, as if its trigger fired.',
    method: 'POST',
    path: '/flow/:id/trigger',
    scope: 'homey.flow.start',
    params: IdParams,
    body: TriggerBody,
    response: OpenObject,
  }),
  getFlowTraces: op({
    name: 'getFlowTraces',
    summary: "The last runs of a flow: what started each and every step's outcome.",
    method: 'GET',
    path: '/flow/:id/trace',
    scope: 'homey.flow.readonly',
    params: IdParams,
    response: Type.Array(FlowTrace),
  }),
  getPendingFlowActions: op({
    name: 'getPendingFlowActions',
    summary: 'Actions of flow runs that wait for their delay.',
    method: 'GET',
    path: '/flow/pending',
    scope: 'homey.flow.readonly',
    response: Type.Array(PendingFlowAction),
  }),
  deletePendingFlowAction: op({
    name: 'deletePendingFlowAction',
    summary: 'Cancels a waiting action of a flow run.',
    method: 'DELETE',
    path: '/flow/pending/:id',
    scope: 'homey.flow',
    params: IdParams,
  }),
  shareFlow: op({
    name: 'shareFlow',
    method: 'POST',
    path: '/flow/:id/share',
    scope: 'homey.flow.readonly',
    params: IdParams,
    response: Type.Object({
      id: Type.String(),
      flow: OpenObject,
      createdAt: Type.String(),
      /** Where the shared flow is read, when the hub has a cloud (else the flow is exported here only). */
      url: Type.Optional(Type.String()),
    }),
    summary:
      "Shares a flow through the cloud's flow-sharing service, which replaces the devices, variables, zones and people it names by placeholders; a hub without a cloud answers the flow for export.",
  }),
  importSharedFlow: op({
    name: 'importSharedFlow',
    method: 'POST',
    path: '/flow/import',
    scope: 'homey.flow',
    body: Type.Object({
      /** The shared flow's id (its link's last part). */
      id: Type.String({ minLength: 1, maxLength: 64 }),
      /** What each placeholder of the shared flow stands for here: `{"{{device:1}}": "<device id>"}`. */
      map: Type.Optional(
        Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 200 }), {
          propertyNames: { pattern: '^\\{\\{[a-z]+:[0-9]+\\}\\}$' },
          maxProperties: 100,
        }),
      ),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    }),
    response: Type.Object({
      type: Type.Enum(['flow', 'advancedflow']),
      flow: OpenObject,
      /** Placeholders the map left open: the flow is broken until they are set, and starts switched off. */
      unmapped: Type.Array(Type.String()),
    }),
    successStatus: 201,
    errors: ['not_found', 'unavailable', 'invalid_parameter'],
    summary:
      "Beyond the ecosystem's API: makes a flow (or advanced flow) from one shared through the cloud, with its placeholders replaced as `map` says. A flow with placeholders left open is stored switched off.",
  }),
  getFlowFolders: op({
    name: 'getFlowFolders',
    summary: 'Every flow folder, by id.',
    method: 'GET',
    path: '/flowfolder',
    scope: 'homey.flow.readonly',
    response: Type.Record(Type.String(), FlowFolder),
  }),
  getFlowFolder: op({
    name: 'getFlowFolder',
    summary: 'One flow folder.',
    method: 'GET',
    path: '/flowfolder/:id',
    scope: 'homey.flow.readonly',
    params: IdParams,
    response: FlowFolder,
  }),
  createFlowFolder: op({
    name: 'createFlowFolder',
    summary: 'Creates a flow folder.',
    method: 'POST',
    path: '/flowfolder',
    scope: 'homey.flow',
    body: FlowFolderCreate,
    bodyRoot: 'flowfolder',
    response: FlowFolder,
  }),
  updateFlowFolder: op({
    name: 'updateFlowFolder',
    summary: 'Renames a flow folder or moves it.',
    method: 'PUT',
    path: '/flowfolder/:id',
    scope: 'homey.flow',
    params: IdParams,
    body: FlowFolderUpdate,
    bodyRoot: 'flowfolder',
    response: FlowFolder,
  }),
  deleteFlowFolder: op({
    name: 'deleteFlowFolder',
    summary: 'Deletes a flow folder.',
    method: 'DELETE',
    path: '/flowfolder/:id',
    scope: 'homey.flow',
    params: IdParams,
  }),
  getFlowCardTriggers: op({
    name: 'getFlowCardTriggers',
    summary: 'Every trigger card the hub, its devices and its apps offer.',
    method: 'GET',
    path: '/flowcardtrigger',
    scope: 'homey.flow.readonly',
    response: Type.Record(Type.String(), FlowCard),
  }),
  getFlowCardTrigger: op({
    name: 'getFlowCardTrigger',
    summary: 'One trigger card, with its arguments and tokens.',
    method: 'GET',
    path: '/flowcardtrigger/:uri/:id',
    scope: 'homey.flow.readonly',
    params: CardParams,
    response: FlowCard,
  }),
  getFlowCardConditions: op({
    name: 'getFlowCardConditions',
    summary: 'Every condition card the hub, its devices and its apps offer.',
    method: 'GET',
    path: '/flowcardcondition',
    scope: 'homey.flow.readonly',
    response: Type.Record(Type.String(), FlowCard),
  }),
  getFlowCardCondition: op({
    name: 'getFlowCardCondition',
    summary: 'One condition card, with its arguments.',
    method: 'GET',
    path: '/flowcardcondition/:uri/:id',
    scope: 'homey.flow.readonly',
    params: CardParams,
    response: FlowCard,
  }),
  runFlowCardCondition: op({
    name: 'runFlowCardCondition',
    summary: 'Checks a condition card now with the given arguments.',
    method: 'POST',
    path: '/flowcardcondition/:uri/:id/run',
    scope: 'homey.flow',
    params: CardParams,
    body: RunBody,
    response: Type.Object({ result: Type.Boolean() }),
  }),
  getFlowCardActions: op({
    name: 'getFlowCardActions',
    summary: 'Every action card the hub, its devices and its apps offer.',
    method: 'GET',
    path: '/flowcardaction',
    scope: 'homey.flow.readonly',
    response: Type.Record(Type.String(), FlowCard),
  }),
  getFlowCardAction: op({
    name: 'getFlowCardAction',
    summary: 'One action card, with its arguments.',
    method: 'GET',
    path: '/flowcardaction/:uri/:id',
    scope: 'homey.flow.readonly',
    params: CardParams,
    response: FlowCard,
  }),
  runFlowCardAction: op({
    name: 'runFlowCardAction',
    summary: 'Runs an action card now with the given arguments.',
    method: 'POST',
    path: '/flowcardaction/:uri/:id/run',
    scope: 'homey.flow',
    params: CardParams,
    body: Type.Object({ ...RunBody.properties, duration: Type.Optional(Type.Number({ minimum: 0 })) }),
    response: OpenObject,
  }),
  getFlowCardAutocomplete: op({
    name: 'getFlowCardAutocomplete',
    method: 'GET',
    path: '/:type/:uri/:id/autocomplete',
    // The wire lists no scope; the suggestions (variables, people, zones, an app's own lists) are the home's
    // data, read as a flow editor reads them.
    scope: 'homey.flow.readonly',
    params: Type.Object({
      type: Type.Enum(['flowcardtrigger', 'flowcardcondition', 'flowcardaction']),
      uri: Type.String({ minLength: 1 }),
      id: Type.String({ minLength: 1 }),
    }),
    query: Type.Object({ name: Type.String({ minLength: 1 }), query: Type.String(), args: Type.Optional(Type.String()) }),
    response: Type.Array(OpenObject),
    summary: "Suggestions for one autocomplete argument of a card, from the card's owner (the hub or an app).",
  }),
  getAdvancedFlows: op({
    name: 'getAdvancedFlows',
    summary: 'Every advanced flow, by id.',
    method: 'GET',
    path: '/advancedflow',
    scope: 'homey.flow.readonly',
    response: Type.Record(Type.String(), AdvancedFlow),
  }),
  getAdvancedFlow: op({
    name: 'getAdvancedFlow',
    summary: 'One advanced flow: its cards and their connections.',
    method: 'GET',
    path: '/advancedflow/:id',
    scope: 'homey.flow.readonly',
    params: IdParams,
    response: AdvancedFlow,
  }),
  createAdvancedFlow: op({
    name: 'createAdvancedFlow',
    summary: 'Creates an advanced flow.',
    method: 'POST',
    path: '/advancedflow',
    scope: 'homey.flow',
    body: AdvancedFlowCreate,
    bodyRoot: 'advancedflow',
    response: AdvancedFlow,
  }),
  updateAdvancedFlow: op({
    name: 'updateAdvancedFlow',
    summary: 'Changes an advanced flow: its cards, name, folder or whether it is on.',
    method: 'PUT',
    path: '/advancedflow/:id',
    scope: 'homey.flow',
    params: IdParams,
    body: AdvancedFlowUpdate,
    bodyRoot: 'advancedflow',
    response: AdvancedFlow,
  }),
  deleteAdvancedFlow: op({
    name: 'deleteAdvancedFlow',
    summary: 'Deletes an advanced flow.',
    method: 'DELETE',
    path: '/advancedflow/:id',
    scope: 'homey.flow',
    params: IdParams,
  }),
  getAdvancedFlowTraces: op({
    name: 'getAdvancedFlowTraces',
    summary: "The last runs of an advanced flow: what started each and every step's outcome.",
    method: 'GET',
    path: '/advancedflow/:id/trace',
    scope: 'homey.flow.readonly',
    params: IdParams,
    response: Type.Array(FlowTrace),
  }),
  triggerAdvancedFlow: op({
    name: 'triggerAdvancedFlow',
    summary: 'Starts an advanced flow now, as if its trigger fired.',
    method: 'POST',
    path: '/advancedflow/:id/trigger',
    scope: 'homey.flow.start',
    params: IdParams,
    body: TriggerBody,
    response: OpenObject,
  }),
} as const;

/** Wire events of the flow manager. */
export const flowEvents = managerEvents('flow', {
  events: {
    ...entityEvents('flow', Flow),
    ...entityEvents('advancedflow', AdvancedFlow),
    ...entityEvents('flowfolder', FlowFolder),
    'trace.create': FlowTrace,
    'trace.update': FlowTrace,
    /** A step of a flow test (`POST /flow/test`), sent to the tester's own sessions under their test session id. */
    'flowtest.step': Type.Object({ sessionId: Type.String(), step: OpenObject }),
  },
});
