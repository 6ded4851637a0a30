import { randomUUID } from 'node:crypto';
import { type FlowCreateBody, HearthError, hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { describeAdvancedFlow, describeFlow, PROGRAMMATIC_TRIGGER, type StoredAdvancedFlow, type StoredFlow } from './health';
import { FlowPublisher } from './publish';
import { type FlowCardDefinition, type FlowCardType, type FlowRegistry, uriObject } from './registry';
import { DocumentStore, flowMigrations } from './store';

interface StoredFolder {
  id: string;
  name: string;
  order: number;
  parent: string | null;
}

function cardToWire(card: FlowCardDefinition) {
  return {
    id: cardKey(card),
    ownerUri: card.uri,
    uriObj: uriObject(card.uri),
    title: card.title,
    hint: card.hint ?? null,
    highlight: card.highlight ?? false,
    deprecated: card.deprecated ?? false,
    advanced: card.advanced ?? false,
    droptoken: card.droptoken ?? null,
    duration: card.duration ?? false,
    args: card.args ?? [],
    ...(card.type === 'condition' ? {} : { tokens: card.tokens ?? [] }),
  };
}

const cardKey = (card: FlowCardDefinition) => `${card.uri}:${card.id}`;

/** `{uri, id}` of a card given as `{uri, id}` or as a full id `<owner uri>:<card id>` (how card lists name it). */
function cardRef(field: string, card: { uri?: string; id: string }): { uri: string; id: string } {
  if (card.uri !== undefined) return { uri: card.uri, id: card.id };
  const split = card.id.lastIndexOf(':');
  if (!card.id.startsWith('homey:') || split <= 'homey:'.length)
    throw new HearthError('missing_parameter', `Missing Parameter: ${field}.uri`);
  return { uri: card.id.slice(0, split), id: card.id.slice(split + 1) };
}

/** Applies the defaults of the seed (condition group1 not inverted, action group then, no duration or delay). */
function normaliseCards(body: Pick<FlowCreateBody, 'trigger' | 'conditions' | 'actions'>) {
  return {
    trigger: {
      ...cardRef('trigger', body.trigger),
      args: body.trigger.args ?? {},
      droptoken: body.trigger.droptoken ?? null,
    },
    conditions: body.conditions.map((c, index) => ({
      ...cardRef(`conditions.${index}`, c),
      args: c.args ?? {},
      droptoken: c.droptoken ?? null,
      group: c.group ?? 'group1',
      inverted: c.inverted ?? false,
    })),
    actions: body.actions.map((a, index) => ({
      ...cardRef(`actions.${index}`, a),
      args: a.args ?? {},
      droptoken: a.droptoken ?? null,
      group: a.group ?? 'then',
      duration: a.duration ?? null,
      delay: a.delay ?? null,
    })),
  };
}

const flowStore = (context: HubContext) => new DocumentStore<StoredFlow>(context.db, 'flow_flow');
const advancedFlowStore = (context: HubContext) => new DocumentStore<StoredAdvancedFlow>(context.db, 'flow_advanced');

/** Lists every flow and advanced flow of a hub as GET answers them (the stores are opened once). */
function wireFlowLister(context: HubContext, registry: FlowRegistry) {
  const flows = flowStore(context);
  const advanced = advancedFlowStore(context);
  return () => [
    ...flows.list().map((flow) => ({ type: 'flow' as const, flow: describeFlow(registry, flow) })),
    ...advanced.list().map((flow) => ({ type: 'advancedflow' as const, flow: describeAdvancedFlow(registry, flow) })),
  ];
}

/** Flows, advanced flows and their folders; the flow cards and tokens the hub knows. Running flows is the engine's. */
export const flowManager: HubManager = {
  name: 'flow',
  migrations: flowMigrations,
  create: (context, services) => {
    const registry = services.flowCards;
    const flows = flowStore(context);
    const advanced = advancedFlowStore(context);
    const folders = new DocumentStore<StoredFolder>(context.db, 'flow_folder');
    const shares = new DocumentStore<{ id: string; flow: Record<string, unknown>; createdAt: string }>(context.db, 'flow_share');

    const findFlow = (id: string) => flows.get(id) ?? (notFoundThrow('Flow', id) as never);
    const findAdvanced = (id: string) => advanced.get(id) ?? (notFoundThrow('Advanced flow', id) as never);
    const findFolder = (id: string) => folders.get(id) ?? (notFoundThrow('Flow folder', id) as never);
    const checkFolder = (folder: string | null | undefined, field = 'folder') => {
      if (folder != null && !folders.get(folder)) throw invalidParameter(field, `Unknown flow folder ${folder}`);
    };
    const wireFlow = (flow: StoredFlow) => describeFlow(registry, flow);
    const wireAdvanced = (flow: StoredAdvancedFlow) => describeAdvancedFlow(registry, flow);
    const publisher = new FlowPublisher(context.events, registry);
    const publish = (type: string, action: 'create' | 'update' | 'delete', data: unknown) =>
      publisher.publish(type, action, data);
    let stopRepublishing: (() => void) | undefined;
    let stopProgrammaticTrigger: (() => void) | undefined;

    const findCard = (type: FlowCardType, uri: string, id: string) => {
      const card = registry.card(type, uri, id);
      if (!card) throw notFound(`Flow card ${type}`, `${uri}:${id}`);
      return card;
    };
    const cardList = (type: FlowCardType) => Object.fromEntries(registry.listCards(type).map((c) => [cardKey(c), cardToWire(c)]));
    /** Starting flows needs the automation engine; until it exists the hub says so plainly. */
    const refuseToRun = (): never => {
      throw new HearthError('not_implemented', 'Running flows needs the flow engine, which this hub does not have yet');
    };

    return {
      implementations: implement<typeof hubOperations.flow, HubPrincipal>(hubOperations.flow, {
        getState: () => ({
          flows: flows.list().length,
          advancedFlows: advanced.list().length,
          folders: folders.list().length,
          broken:
            flows.list().filter((f) => wireFlow(f).broken).length + advanced.list().filter((f) => wireAdvanced(f).broken).length,
          cards: {
            trigger: registry.listCards('trigger').length,
            condition: registry.listCards('condition').length,
            action: registry.listCards('action').length,
          },
        }),
        getFlows: () => Object.fromEntries(flows.list().map((f) => [f.id, wireFlow(f)])),
        getFlow: ({ params }) => wireFlow(findFlow(params.id)),
        createFlow: ({ body }) => {
          const flow = transact(context.db, () => {
            checkFolder(body.folder);
            return flows.insert({
              id: randomUUID(),
              name: body.name,
              enabled: body.enabled ?? true,
              folder: body.folder ?? null,
              order: body.order ?? flows.list().length,
              ...normaliseCards(body),
            });
          });
          publish('flow', 'create', wireFlow(flow));
          return wireFlow(flow);
        },
        updateFlow: ({ params, body }) => {
          const flow = transact(context.db, () => {
            const current = findFlow(params.id);
            checkFolder(body.folder);
            const cards = normaliseCards({
              trigger: body.trigger ?? current.trigger,
              conditions: body.conditions ?? current.conditions,
              actions: body.actions ?? current.actions,
            });
            return flows.save({
              ...current,
              name: body.name ?? current.name,
              enabled: body.enabled ?? current.enabled,
              folder: body.folder === undefined ? current.folder : body.folder,
              order: body.order ?? current.order,
              ...cards,
            });
          });
          publish('flow', 'update', wireFlow(flow));
          return wireFlow(flow);
        },
        deleteFlow: ({ params }) => {
          if (!transact(context.db, () => flows.delete(params.id))) throw notFound('Flow', params.id);
          publish('flow', 'delete', { id: params.id });
        },
        testFlow: ({ body }) => {
          const flow = describeFlow(registry, {
            id: `test-${body.sessionId}`,
            name: body.flow.name,
            enabled: true,
            folder: null,
            order: 0,
            ...normaliseCards(body.flow),
          });
          if (flow.broken) throw new HearthError('conflict', 'The flow is broken: a card or token it uses is missing');
          return refuseToRun();
        },
        triggerFlow: ({ params }) => {
          const flow = wireFlow(findFlow(params.id));
          if (!flow.enabled) throw new HearthError('conflict', `Flow ${params.id} is disabled`);
          if (flow.broken) throw new HearthError('conflict', `Flow ${params.id} is broken`);
          return refuseToRun();
        },
        shareFlow: ({ params }) => {
          const { id: _id, folder: _folder, ...flow } = findFlow(params.id);
          const share = { id: randomUUID(), flow: flow as Record<string, unknown>, createdAt: new Date().toISOString() };
          transact(context.db, () => shares.insert(share));
          return share;
        },
        getFlowFolders: () => Object.fromEntries(folders.list().map((f) => [f.id, f])),
        getFlowFolder: ({ params }) => findFolder(params.id),
        createFlowFolder: ({ body }) => {
          const folder = transact(context.db, () => {
            checkFolder(body.parent, 'parent');
            return folders.insert({
              id: randomUUID(),
              name: body.name,
              order: body.order ?? folders.list().length,
              parent: body.parent ?? null,
            });
          });
          publish('flowfolder', 'create', folder);
          return folder;
        },
        updateFlowFolder: ({ params, body }) => {
          const folder = transact(context.db, () => {
            const current = findFolder(params.id);
            const parent = body.parent === undefined ? current.parent : body.parent;
            checkFolder(parent, 'parent');
            // A folder may not end up inside itself.
            for (let at = parent; at != null; at = folders.get(at)?.parent ?? null) {
              if (at === current.id) throw invalidParameter('parent', 'A folder cannot be moved into itself or its subfolders');
            }
            return folders.save({ ...current, name: body.name ?? current.name, order: body.order ?? current.order, parent });
          });
          publish('flowfolder', 'update', folder);
          return folder;
        },
        deleteFlowFolder: ({ params }) => {
          // What the folder held moves up to the folder's parent.
          const moved = transact(context.db, () => {
            const folder = findFolder(params.id);
            const changed: { type: string; data: unknown }[] = [];
            for (const child of folders.list().filter((f) => f.parent === folder.id))
              changed.push({ type: 'flowfolder', data: folders.save({ ...child, parent: folder.parent }) });
            for (const flow of flows.list().filter((f) => f.folder === folder.id))
              changed.push({ type: 'flow', data: wireFlow(flows.save({ ...flow, folder: folder.parent })) });
            for (const flow of advanced.list().filter((f) => f.folder === folder.id))
              changed.push({ type: 'advancedflow', data: wireAdvanced(advanced.save({ ...flow, folder: folder.parent })) });
            folders.delete(folder.id);
            return changed;
          });
          for (const { type, data } of moved) publish(type, 'update', data);
          publish('flowfolder', 'delete', { id: params.id });
        },
        getFlowCardTriggers: () => cardList('trigger'),
        getFlowCardTrigger: ({ params }) => cardToWire(findCard('trigger', params.uri, params.id)),
        getFlowCardConditions: () => cardList('condition'),
        getFlowCardCondition: ({ params }) => cardToWire(findCard('condition', params.uri, params.id)),
        runFlowCardCondition: async ({ params, body }) => {
          const card = findCard('condition', params.uri, params.id);
          if (!card.run)
            throw new HearthError('not_implemented', `Condition ${params.uri}:${params.id} cannot be run on its own`);
          const result = await card.run({ args: body.args ?? {}, tokens: body.tokens ?? {}, state: body.state ?? {} });
          return { result: result === true };
        },
        getFlowCardActions: () => cardList('action'),
        getFlowCardAction: ({ params }) => cardToWire(findCard('action', params.uri, params.id)),
        runFlowCardAction: async ({ params, body }) => {
          const card = findCard('action', params.uri, params.id);
          if (!card.run) throw new HearthError('not_implemented', `Action ${params.uri}:${params.id} cannot be run on its own`);
          const result = await card.run({ args: body.args ?? {}, tokens: body.tokens ?? {}, state: body.state ?? {} });
          return result && typeof result === 'object' ? (result as Record<string, unknown>) : {};
        },
        getFlowCardAutocomplete: async ({ params, query }) => {
          const type = params.type.replace('flowcard', '') as FlowCardType;
          const card = findCard(type, params.uri, params.id);
          if (!card.autocomplete || !(card.args ?? []).some((a) => a.name === query.name && a.type === 'autocomplete'))
            throw notFound('Autocomplete argument', query.name);
          let args: Record<string, unknown> = {};
          if (query.args) {
            try {
              args = JSON.parse(query.args) as Record<string, unknown>;
            } catch {
              throw invalidParameter('args', 'Must be a JSON object');
            }
          }
          return (await card.autocomplete({ name: query.name, query: query.query, args })) as Record<string, unknown>[];
        },
        getAdvancedFlows: () => Object.fromEntries(advanced.list().map((f) => [f.id, wireAdvanced(f)])),
        getAdvancedFlow: ({ params }) => wireAdvanced(findAdvanced(params.id)),
        createAdvancedFlow: ({ body }) => {
          const flow = transact(context.db, () => {
            checkFolder(body.folder);
            return advanced.insert({
              id: randomUUID(),
              name: body.name,
              enabled: body.enabled ?? true,
              folder: body.folder ?? null,
              order: advanced.list().length,
              cards: body.cards as StoredAdvancedFlow['cards'],
            });
          });
          publish('advancedflow', 'create', wireAdvanced(flow));
          return wireAdvanced(flow);
        },
        updateAdvancedFlow: ({ params, body }) => {
          const flow = transact(context.db, () => {
            const current = findAdvanced(params.id);
            checkFolder(body.folder);
            return advanced.save({
              ...current,
              name: body.name ?? current.name,
              enabled: body.enabled ?? current.enabled,
              folder: body.folder === undefined ? current.folder : body.folder,
              cards: (body.cards as StoredAdvancedFlow['cards'] | undefined) ?? current.cards,
            });
          });
          publish('advancedflow', 'update', wireAdvanced(flow));
          return wireAdvanced(flow);
        },
        deleteAdvancedFlow: ({ params }) => {
          if (!transact(context.db, () => advanced.delete(params.id))) throw notFound('Advanced flow', params.id);
          publish('advancedflow', 'delete', { id: params.id });
        },
        triggerAdvancedFlow: ({ params }) => {
          const flow = wireAdvanced(findAdvanced(params.id));
          if (!flow.enabled) throw new HearthError('conflict', `Advanced flow ${params.id} is disabled`);
          if (flow.broken) throw new HearthError('conflict', `Advanced flow ${params.id} is broken`);
          return refuseToRun();
        },
      }),
      start: () => {
        // The hub's own trigger for flows started by a call, by another flow or by the mobile app.
        stopProgrammaticTrigger = registry.registerCard({
          type: 'trigger',
          ...PROGRAMMATIC_TRIGGER,
          title: 'This flow is started',
          hint: 'Starts when the flow is started from the app, another flow or the API.',
        });
        stopRepublishing = publisher.republishOnHealthChange(wireFlowLister(context, registry));
      },
      stop: () => {
        stopRepublishing?.();
        stopProgrammaticTrigger?.();
      },
    };
  },
};

function notFoundThrow(what: string, id: string): never {
  throw notFound(what, id);
}
