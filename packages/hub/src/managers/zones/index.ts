import { HearthError, hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement, SerializedJson } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { trackZoneActivity } from './activity';
import { serveZoneCards } from './cards';
import { type HubZone, type ZoneStore, zoneMigrations } from './store';

const READ_SCOPE = 'homey.zone.readonly';

function requireZone(store: ZoneStore, id: string): HubZone {
  const zone = store.get(id);
  if (!zone) throw notFound('Zone', id);
  return zone;
}

function requireName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidParameter('zone.name', 'Must not be empty');
  return trimmed;
}

function requireParent(store: ZoneStore, parent: string): void {
  if (!store.get(parent)) throw invalidParameter('zone.parent', `No zone with id ${parent}`);
}

/** Whether `candidate` is `id` itself or lies below it: moving `id` under it would make a cycle. */
function isSelfOrDescendant(store: ZoneStore, id: string, candidate: string): boolean {
  for (
    let current: HubZone | undefined = store.get(candidate);
    current;
    current = current.parent ? store.get(current.parent) : undefined
  ) {
    if (current.id === id) return true;
  }
  return false;
}

/** The zones of the home: one tree under the root zone, created on the hub's first start. */
export const zonesManager: HubManager = {
  name: 'zones',
  migrations: zoneMigrations,
  create: (context, services) => {
    const db = context.db;
    const store = services.zones;
    /**
     * Every change is one transaction (made durable before the answer by the hub's group commit); a failed one
     * leaves no cached zone behind.
     */
    const write = <T>(change: () => T): T => {
      try {
        return transact(db, change);
      } catch (error) {
        store.forget();
        throw error;
      }
    };
    let stopTracking: (() => void) | undefined;
    const publish = (action: 'create' | 'update' | 'delete', data: HubZone | { id: string }) =>
      context.events.entity('zones', 'zone', action, data, READ_SCOPE);
    return {
      implementations: implement<typeof hubOperations.zones, HubPrincipal>(hubOperations.zones, {
        getState: () => ({ rootZoneId: store.root()?.id ?? '', zoneCount: store.count() }),
        // The listing is serialized once per change rather than on every read.
        getZones: () => new SerializedJson(store.listJson()),
        getZone: ({ params }) => requireZone(store, params.id),
        createZone: async ({ body }) => {
          const zone = write(() => {
            requireParent(store, body.parent);
            return store.create({
              name: requireName(body.name),
              icon: body.icon,
              parent: body.parent,
              order: body.order ?? store.nextOrder(body.parent),
            });
          });
          publish('create', zone);
          context.bus.emit('zone.added', { zoneId: zone.id });
          return zone;
        },
        updateZone: async ({ params, body }) => {
          const zone = write(() => {
            const current = requireZone(store, params.id);
            if (body.parent !== undefined && body.parent !== current.parent) {
              if (current.parent === null) throw invalidParameter('zone.parent', 'The root zone has no parent');
              requireParent(store, body.parent);
              if (isSelfOrDescendant(store, current.id, body.parent)) {
                throw invalidParameter('zone.parent', 'A zone cannot be moved into itself or one of its children');
              }
            }
            return store.update(current.id, {
              name: body.name === undefined ? undefined : requireName(body.name),
              icon: body.icon,
              parent: body.parent,
              order: body.order,
            }) as HubZone;
          });
          publish('update', zone);
          return zone;
        },
        deleteZone: async ({ params }) => {
          write(() => {
            const zone = requireZone(store, params.id);
            if (zone.parent === null) throw new HearthError('forbidden', 'The root zone cannot be deleted');
            if (store.hasChildren(zone.id)) {
              throw new HearthError('conflict', 'This zone has child zones: move or delete them first');
            }
            if (services.devices.hasDevicesIn(zone.id))
              throw new HearthError('conflict', 'This zone has devices: move them to another zone first');
            store.delete(zone.id);
          });
          publish('delete', { id: params.id });
          context.bus.emit('zone.removed', { zoneId: params.id });
        },
      }),
      start: () => {
        if (!store.root()) store.create({ name: 'Home', icon: 'home', parent: null, order: 0 });
        const stopActivity = trackZoneActivity(context.bus, context.clock, store, services.devices);
        const stopCards = serveZoneCards(services.flowCards, context.bus, store);
        stopTracking = () => {
          stopActivity();
          stopCards();
        };
      },
      stop: () => stopTracking?.(),
    };
  },
};
