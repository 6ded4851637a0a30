import { randomUUID } from 'node:crypto';
import { type AdvancedFlowCreateBody, type FlowCreateBody, hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { isoNow } from '../../core/clock';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { homeLocation } from '../geolocation';
import { hubTimezone } from '../i18n/timezone';
import { flowControlCards } from './cards';
import { type AnyFlow, FlowCatalog } from './engine/catalog';
import { FlowEngine } from './engine/engine';
import { TraceStore, traceMigrations } from './engine/traces';
import {
  advancedFlowProblems,
  describeAdvancedFlow,
  describeFlow,
  flowCardUses,
  PROGRAMMATIC_TRIGGER,
  type StoredAdvancedFlow,
  type StoredFlow,
  standardFlowProblems,
} from './health';
import { FlowPublisher } from './publish';
import type { FlowCardRef, FlowCardType, FlowRegistry } from './registry';
import { replaceRetiredCards } from './retired-cards';
import { runningHandlers } from './running';
import { sharedFlowFor, shareThroughCloud } from './sharing';
import { DocumentStore, flowMigrations } from './store';
import { serveTimeCards } from './time-cards';
import { cardKey, cardToWire, normaliseCards, normaliseNodes } from './wire';

interface StoredFolder {
  id: string;
  name: string;
  order: number;
  parent: string | null;
}

const flowStore = (context: HubContext) => new DocumentStore<StoredFlow>(context.db, 'flow_flow', context.clock);
const advancedFlowStore = (context: HubContext) =>
  new DocumentStore<StoredAdvancedFlow>(context.db, 'flow_advanced', context.clock);

/** Lists every flow and advanced flow of a hub as GET answers them (the stores are opened once). */
function wireFlowLister(context: HubContext, registry: FlowRegistry) {
  const flows = flowStore(context);
  const advanced = advancedFlowStore(context);
  return () => [
    ...flows.list().map((flow) => ({ type: 'flow' as const, flow: describeFlow(registry, flow) })),
    ...advanced.list().map((flow) => ({ type: 'advancedflow' as const, flow: describeAdvancedFlow(registry, flow) })),
  ];
}

/** The cards the given flows use, each once (for the apps whose cards they are). */
function cardsUsed(...entries: (AnyFlow | undefined)[]): FlowCardRef[] {
  const cards = new Map<string, FlowCardRef>();
  for (const entry of entries) {
    if (!entry) continue;
    for (const { type, card } of flowCardUses(entry))
      cards.set(`${type} ${card.uri} ${card.id}`, { type, uri: card.uri, id: card.id });
  }
  return [...cards.values()];
}

/** Flows, advanced flows and their folders; the flow cards and tokens the hub knows. Running flows is the engine's. */
export const flowManager: HubManager = {
  name: 'flow',
  migrations: [...flowMigrations, ...traceMigrations],
  create: (context, services) => {
    const registry = services.flowCards;
    const flows = flowStore(context);
    const advanced = advancedFlowStore(context);
    const folders = new DocumentStore<StoredFolder>(context.db, 'flow_folder', context.clock);
    const shares = new DocumentStore<{ id: string; flow: Record<string, unknown>; createdAt: string }>(
      context.db,
      'flow_share',
      context.clock,
    );
    services.summary.provide('flows', () => flows.count() + advanced.count());

    const findFlow = (id: string) => flows.get(id) ?? (notFoundThrow('Flow', id) as never);
    const findAdvanced = (id: string) => advanced.get(id) ?? (notFoundThrow('Advanced flow', id) as never);
    const findFolder = (id: string) => folders.get(id) ?? (notFoundThrow('Flow folder', id) as never);
    const checkFolder = (folder: string | null | undefined, field = 'folder') => {
      if (folder != null && !folders.get(folder)) throw invalidParameter(field, `Unknown flow folder ${folder}`);
    };
    const wireFlow = (flow: StoredFlow) => describeFlow(registry, flow);
    const wireAdvanced = (flow: StoredAdvancedFlow) => describeAdvancedFlow(registry, flow);
    const publisher = new FlowPublisher(context.events, registry);
    const publish: FlowPublisher['publish'] = (type, action, data) => publisher.publish(type, action, data);
    const catalog = new FlowCatalog();
    const traces = new TraceStore(context.db, context.clock);
    const engine = new FlowEngine({
      context,
      registry,
      catalog,
      traces,
      notifications: services.notifications,
      problems: (entry: AnyFlow) =>
        entry.type === 'flow' ? standardFlowProblems(registry, entry.flow) : advancedFlowProblems(registry, entry.flow),
      disable: (type, id) => setEnabled(type, id, false),
    });
    /** Switches a flow on or off as a card or the loop guard asks (the API changes it with an update). */
    const setEnabled = (type: 'flow' | 'advancedflow', id: string, enabled: boolean) => {
      if (type === 'flow') {
        const flow = transact(context.db, () => flows.save({ ...findFlow(id), enabled }));
        changed('flow', flow);
        publish('flow', 'update', wireFlow(flow));
      } else {
        const flow = transact(context.db, () => advanced.save({ ...findAdvanced(id), enabled }));
        changed('advancedflow', flow);
        publish('advancedflow', 'update', wireAdvanced(flow));
      }
    };
    /** Tells the engine of a stored change; a flow switched off stops (its waiting actions go). */
    function changed(type: 'flow', flow: StoredFlow): void;
    function changed(type: 'advancedflow', flow: StoredAdvancedFlow): void;
    function changed(type: 'flow' | 'advancedflow', flow: StoredFlow | StoredAdvancedFlow): void {
      const before = catalog.get(type, flow.id);
      catalog.put({ type, flow } as AnyFlow);
      if (!flow.enabled) engine.flowStopped(type, flow.id);
      registry.usageChanged(cardsUsed(before, { type, flow } as AnyFlow));
    }
    const removed = (type: 'flow' | 'advancedflow', id: string) => {
      const before = catalog.get(type, id);
      engine.flowStopped(type, id);
      catalog.remove(type, id);
      traces.deleteFlow(id);
      registry.usageChanged(cardsUsed(before));
    };
    const stops: (() => void)[] = [];

    const findCard = (type: FlowCardType, uri: string, id: string) => {
      const card = registry.card(type, uri, id);
      if (!card) throw notFound(`Flow card ${type}`, `${uri}:${id}`);
      return card;
    };
    const cardList = (type: FlowCardType) => Object.fromEntries(registry.listCards(type).map((c) => [cardKey(c), cardToWire(c)]));

    const createStandard = (body: FlowCreateBody) => {
      const flow = transact(context.db, () => {
        checkFolder(body.folder);
        return flows.insert({
          id: randomUUID(),
          name: body.name,
          enabled: body.enabled ?? true,
          folder: body.folder ?? null,
          order: body.order ?? flows.count(),
          ...(body.mode ? { mode: body.mode } : {}),
          ...(body.max ? { max: body.max } : {}),
          ...normaliseCards(body),
        });
      });
      changed('flow', flow);
      publish('flow', 'create', wireFlow(flow));
      return wireFlow(flow);
    };
    const createAdvanced = (body: AdvancedFlowCreateBody) => {
      const flow = transact(context.db, () => {
        checkFolder(body.folder);
        return advanced.insert({
          id: randomUUID(),
          name: body.name,
          enabled: body.enabled ?? true,
          folder: body.folder ?? null,
          order: advanced.count(),
          ...(body.mode ? { mode: body.mode } : {}),
          ...(body.max ? { max: body.max } : {}),
          cards: normaliseNodes(body.cards),
        });
      });
      changed('advancedflow', flow);
      publish('advancedflow', 'create', wireAdvanced(flow));
      return wireAdvanced(flow);
    };

    return {
      implementations: implement<typeof hubOperations.flow, HubPrincipal>(hubOperations.flow, {
        getState: () => ({
          flows: flows.count(),
          advancedFlows: advanced.count(),
          folders: folders.count(),
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
        createFlow: ({ body }) => createStandard(body),
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
              mode: body.mode ?? current.mode,
              max: body.max ?? current.max,
              ...cards,
            });
          });
          changed('flow', flow);
          publish('flow', 'update', wireFlow(flow));
          return wireFlow(flow);
        },
        deleteFlow: ({ params }) => {
          if (!transact(context.db, () => flows.delete(params.id))) throw notFound('Flow', params.id);
          removed('flow', params.id);
          publish('flow', 'delete', { id: params.id });
        },
        shareFlow: async ({ params }) => {
          // Shared as answered (its cards as they were written), without what the hub computes.
          const { broken: _broken, triggerable: _triggerable, ...stored } = wireFlow(findFlow(params.id));
          if (context.cloud.url) {
            const shared = await shareThroughCloud(context, { ...stored });
            return { id: shared.id, flow: shared.flow, createdAt: shared.createdAt, url: shared.url };
          }
          const { id: _id, folder: _folder, ...flow } = stored;
          const share = { id: randomUUID(), flow: flow as Record<string, unknown>, createdAt: isoNow(context.clock) };
          transact(context.db, () => shares.insert(share));
          return share;
        },
        importSharedFlow: async ({ body }) => {
          const { shared, flow, unmapped } = await sharedFlowFor(context, body.id, body.map ?? {});
          // A flow with placeholders left open would be broken: it starts switched off.
          const fields = { ...flow, name: body.name ?? String(flow.name), enabled: unmapped.length === 0 };
          const created =
            shared.type === 'advancedflow'
              ? createAdvanced(fields as AdvancedFlowCreateBody)
              : createStandard(fields as FlowCreateBody);
          return { type: shared.type, flow: created, unmapped };
        },
        getFlowFolders: () => Object.fromEntries(folders.list().map((f) => [f.id, f])),
        getFlowFolder: ({ params }) => findFolder(params.id),
        createFlowFolder: ({ body }) => {
          const folder = transact(context.db, () => {
            checkFolder(body.parent, 'parent');
            return folders.insert({
              id: randomUUID(),
              name: body.name,
              order: body.order ?? folders.count(),
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
            const changed: (() => void)[] = [];
            for (const child of folders.list().filter((f) => f.parent === folder.id)) {
              const data = folders.save({ ...child, parent: folder.parent });
              changed.push(() => publish('flowfolder', 'update', data));
            }
            for (const flow of flows.list().filter((f) => f.folder === folder.id)) {
              const data = wireFlow(flows.save({ ...flow, folder: folder.parent }));
              changed.push(() => publish('flow', 'update', data));
            }
            for (const flow of advanced.list().filter((f) => f.folder === folder.id)) {
              const data = wireAdvanced(advanced.save({ ...flow, folder: folder.parent }));
              changed.push(() => publish('advancedflow', 'update', data));
            }
            folders.delete(folder.id);
            return changed;
          });
          for (const announce of moved) announce();
          publish('flowfolder', 'delete', { id: params.id });
        },
        getFlowCardTriggers: () => cardList('trigger'),
        getFlowCardTrigger: ({ params }) => cardToWire(findCard('trigger', params.uri, params.id)),
        getFlowCardConditions: () => cardList('condition'),
        getFlowCardCondition: ({ params }) => cardToWire(findCard('condition', params.uri, params.id)),
        getFlowCardActions: () => cardList('action'),
        getFlowCardAction: ({ params }) => cardToWire(findCard('action', params.uri, params.id)),
        getAdvancedFlows: () => Object.fromEntries(advanced.list().map((f) => [f.id, wireAdvanced(f)])),
        getAdvancedFlow: ({ params }) => wireAdvanced(findAdvanced(params.id)),
        createAdvancedFlow: ({ body }) => createAdvanced(body),
        updateAdvancedFlow: ({ params, body }) => {
          const flow = transact(context.db, () => {
            const current = findAdvanced(params.id);
            checkFolder(body.folder);
            return advanced.save({
              ...current,
              name: body.name ?? current.name,
              enabled: body.enabled ?? current.enabled,
              folder: body.folder === undefined ? current.folder : body.folder,
              mode: body.mode ?? current.mode,
              max: body.max ?? current.max,
              cards: body.cards ? normaliseNodes(body.cards) : current.cards,
            });
          });
          changed('advancedflow', flow);
          publish('advancedflow', 'update', wireAdvanced(flow));
          return wireAdvanced(flow);
        },
        deleteAdvancedFlow: ({ params }) => {
          if (!transact(context.db, () => advanced.delete(params.id))) throw notFound('Advanced flow', params.id);
          removed('advancedflow', params.id);
          publish('advancedflow', 'delete', { id: params.id });
        },
        ...runningHandlers({ context, registry, engine, catalog, traces }),
      }),
      start: () => {
        transact(context.db, () => replaceRetiredCards(registry, flows, advanced));
        catalog.load([
          ...flows.list().map((flow) => ({ type: 'flow' as const, flow })),
          ...advanced.list().map((flow) => ({ type: 'advancedflow' as const, flow })),
        ]);
        traces.prune();
        stops.push(
          // Which flows use a card, for the apps whose cards they are (`FlowCard.getArgumentValues`).
          registry.serveUsage((type, uri, id) =>
            catalog.all().flatMap((entry) =>
              flowCardUses(entry)
                .filter((use) => use.type === type && use.card.uri === uri && use.card.id === id)
                .map((use) => ({ ...(use.card.args ?? {}) })),
            ),
          ),
          // The hub's own trigger for flows started by a call, by another flow or by the mobile app.
          registry.registerCard({
            type: 'trigger',
            ...PROGRAMMATIC_TRIGGER,
            title: 'This flow is started',
            hint: 'Starts when the flow is started from the app, another flow or the API.',
          }),
          ...flowControlCards({ registry, engine, catalog, setEnabled }).map((card) => registry.registerCard(card)),
          publisher.republishOnHealthChange(wireFlowLister(context, registry)),
          serveTimeCards(
            registry,
            context.clock,
            () => homeLocation(context),
            () => hubTimezone(context),
          ),
        );
        engine.start();
      },
      stop: () => {
        engine.stop();
        traces.flush();
        for (const stop of stops.splice(0)) stop();
      },
    };
  },
};

function notFoundThrow(what: string, id: string): never {
  throw notFound(what, id);
}
