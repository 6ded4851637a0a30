import { randomUUID } from 'node:crypto';
import { hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { type Migration, transact } from '../../store/database';
import { DocumentStore } from '../documents';

const READ_SCOPE = 'homey.mood.readonly';

type DeviceStates = Record<string, Record<string, string | boolean | number>>;

interface Mood {
  id: string;
  name: string;
  preset: string | null;
  zone: string | null;
  devices: DeviceStates;
}

const migrations: Migration[] = [
  {
    id: 'moods-001-create',
    up: (db) => db.exec('CREATE TABLE moods_mood (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL)'),
  },
];

/** A zone must exist when the zones manager is present (it keeps the `zone` table). */
function checkZone(context: HubContext, zone: string | null | undefined): void {
  if (zone == null) return;
  const hasZones = context.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'zone'").get();
  if (hasZones && !context.db.prepare('SELECT 1 FROM zone WHERE id = ?').get(zone))
    throw invalidParameter('zone', `Unknown zone ${zone}`);
}

/** Moods: named sets of device states. Applying one is the device runtime's work; `setMood` hands it over. */
export const moodsManager: HubManager = {
  name: 'moods',
  migrations,
  create: (context) => {
    const store = new DocumentStore<Mood>(context.db, 'moods_mood');
    const find = (id: string) => {
      const mood = store.get(id);
      if (!mood) throw notFound('Mood', id);
      return mood;
    };
    const publish = (action: 'create' | 'update' | 'delete', data: unknown) =>
      context.events.entity('moods', 'mood', action, data, READ_SCOPE);
    return {
      implementations: implement<typeof hubOperations.moods, HubPrincipal>(hubOperations.moods, {
        getState: () => ({ moods: store.list().length, lastSet: context.settings.get('moods.lastSet', null) }),
        getMoods: () => Object.fromEntries(store.list().map((m) => [m.id, m])),
        getMood: ({ params }) => find(params.id),
        createMood: ({ body }) => {
          const mood = transact(context.db, () => {
            checkZone(context, body.zone);
            return store.insert({
              id: randomUUID(),
              name: body.name,
              preset: body.preset ?? null,
              zone: body.zone ?? null,
              devices: body.devices,
            });
          });
          publish('create', mood);
          return mood;
        },
        updateMood: ({ params, body }) => {
          const mood = transact(context.db, () => {
            const current = find(params.id);
            checkZone(context, body.zone);
            return store.save({
              ...current,
              name: body.name ?? current.name,
              preset: body.preset === undefined ? current.preset : body.preset,
              zone: body.zone === undefined ? current.zone : body.zone,
              devices: body.devices ?? current.devices,
            });
          });
          publish('update', mood);
          return mood;
        },
        setMood: ({ params }) => {
          const mood = find(params.id);
          const setAt = new Date().toISOString();
          context.settings.set('moods.lastSet', { id: mood.id, setAt });
          // The device runtime listens for this and sets each device's capabilities.
          context.events.publish({ uri: 'homey:manager:moods', event: 'mood.set', data: { ...mood, setAt }, scope: READ_SCOPE });
          return { id: mood.id, setAt, devices: Object.keys(mood.devices).length };
        },
        deleteMood: ({ params }) => {
          if (!transact(context.db, () => store.delete(params.id))) throw notFound('Mood', params.id);
          publish('delete', { id: params.id });
        },
      }),
    };
  },
};
