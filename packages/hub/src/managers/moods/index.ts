import { randomUUID } from 'node:crypto';
import { hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { ChangeSource } from '../../core/bus';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type Migration, transact } from '../../store/database';
import { DocumentStore } from '../documents';
import { chosenId, registerCards, suggest } from '../flow/registry';
import type { ZoneStore } from '../zones/store';

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

function checkZone(zones: ZoneStore, zone: string | null | undefined): void {
  if (zone != null && !zones.get(zone)) throw invalidParameter('zone', `Unknown zone ${zone}`);
}

/** Moods: named sets of device states, applied through the device-control path. */
export const moodsManager: HubManager = {
  name: 'moods',
  migrations,
  create: (context, services) => {
    const store = new DocumentStore<Mood>(context.db, 'moods_mood', context.clock);
    const find = (id: string) => {
      const mood = store.get(id);
      if (!mood) throw notFound('Mood', id);
      return mood;
    };
    let stopCards: (() => void) | undefined;
    /** Sets every device state of the mood through the device-control path; `source` is who asked. */
    const applyMood = async (mood: Mood, source: ChangeSource) => {
      const setAt = new Date(context.clock.now()).toISOString();
      context.settings.set('moods.lastSet', { id: mood.id, setAt });
      const applied = await services.deviceControl.setMany(mood.devices, { kind: 'mood', moodId: mood.id });
      context.events.manager('moods', 'mood.set', { ...mood, setAt, failed: applied.failed }, READ_SCOPE);
      context.bus.emit('mood.set', { moodId: mood.id, zoneId: mood.zone, source });
      return { id: mood.id, setAt, devices: Object.keys(mood.devices).length };
    };
    const publish = (action: 'create' | 'update' | 'delete', data: Mood | { id: string }) =>
      context.events.entity('moods', 'mood', action, data, READ_SCOPE);
    return {
      implementations: implement<typeof hubOperations.moods, HubPrincipal>(hubOperations.moods, {
        getState: () => ({ moods: store.list().length, lastSet: context.settings.get('moods.lastSet', null) }),
        getMoods: () => Object.fromEntries(store.list().map((m) => [m.id, m])),
        getMood: ({ params }) => find(params.id),
        createMood: ({ body }) => {
          const mood = transact(context.db, () => {
            checkZone(services.zones, body.zone);
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
            checkZone(services.zones, body.zone);
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
        setMood: async ({ params, principal }) =>
          applyMood(find(params.id), { kind: 'api', sessionId: principal.sessionId, userId: principal.userId }),
        deleteMood: ({ params }) => {
          if (!transact(context.db, () => store.delete(params.id))) throw notFound('Mood', params.id);
          publish('delete', { id: params.id });
          // Flows that set this mood are broken now.
          services.flowCards.changed();
        },
      }),
      start: () => {
        stopCards = registerCards(services.flowCards, [
          {
            type: 'action',
            uri: 'homey:manager:moods',
            id: 'set_mood',
            title: 'Set a mood',
            args: [{ name: 'mood', type: 'autocomplete', title: 'Mood' }],
            autocomplete: ({ query }) => suggest(store.list(), query, (m) => ({ id: m.id, name: m.name })),
            argProblem: (args) => {
              const id = chosenId(args.mood);
              return id && !store.get(id) ? 'the mood it sets is gone' : null;
            },
            run: async ({ args, source }) => {
              const mood = store.get(chosenId(args.mood) ?? '');
              if (!mood) throw notFound('Mood', chosenId(args.mood) ?? '');
              return applyMood(mood, source ?? { kind: 'system' });
            },
          },
        ]);
      },
      stop: () => stopCards?.(),
    };
  },
};
