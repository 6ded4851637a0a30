import { randomUUID } from 'node:crypto';
import { type DashboardCreate, HearthError, hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { Static } from 'typebox';
import { isoNow } from '../../core/clock';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type Migration, transact } from '../../store/database';
import { DocumentStore } from '../documents';
import type { AppWidgetDefinition } from './registry';

const READ_SCOPE = 'homey.dashboard.readonly';

type Dashboard = Static<typeof DashboardCreate> & { id: string };

interface WidgetStore {
  id: string;
  state: Record<string, unknown>;
  updatedAt: string;
}

const migrations: Migration[] = [
  {
    id: 'dashboards-001-create',
    up: (db) => {
      db.exec('CREATE TABLE dashboards_dashboard (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL)');
      db.exec('CREATE TABLE dashboards_widget_store (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL)');
    },
  },
];

const widgetToWire = ({ autocomplete: _autocomplete, ...widget }: AppWidgetDefinition) => widget;

/** Dashboards in both forms (older columns, newer widgets and lines), app widgets and widget state stores. */
export const dashboardsManager: HubManager = {
  name: 'dashboards',
  migrations,
  create: (context, services) => {
    const dashboards = new DocumentStore<Dashboard>(context.db, 'dashboards_dashboard', context.clock);
    const stores = new DocumentStore<WidgetStore>(context.db, 'dashboards_widget_store', context.clock);
    const widgets = services.widgets;
    const find = (id: string) => dashboards.get(id) ?? (notFoundThrow('Dashboard', id) as never);
    const findStore = (id: string) => stores.get(id) ?? (notFoundThrow('Widget store', id) as never);
    const findWidget = (id: string) => widgets.get(id) ?? (notFoundThrow('App widget', id) as never);
    const publish = (action: 'create' | 'update' | 'delete', data: Dashboard | { id: string }) =>
      context.events.entity('dashboards', 'dashboard', action, data, READ_SCOPE);
    return {
      implementations: implement<typeof hubOperations.dashboards, HubPrincipal>(hubOperations.dashboards, {
        getState: () => ({
          dashboards: dashboards.list().length,
          appWidgets: widgets.list().length,
          widgetStores: stores.list().length,
        }),
        getDashboards: () => Object.fromEntries(dashboards.list().map((d) => [d.id, d])),
        getDashboard: ({ params }) => find(params.id),
        createDashboard: ({ body }) => {
          if (body.columns === undefined && (body.widgets === undefined || body.lines === undefined))
            throw new HearthError('missing_parameter', 'Missing Parameter: columns, or widgets and lines');
          const dashboard = transact(context.db, () => dashboards.insert({ id: randomUUID(), ...body }));
          publish('create', dashboard);
          return dashboard;
        },
        updateDashboard: ({ params, body }) => {
          const dashboard = transact(context.db, () => dashboards.save({ ...find(params.id), ...body }));
          publish('update', dashboard);
          return dashboard;
        },
        deleteDashboard: ({ params }) => {
          if (!transact(context.db, () => dashboards.delete(params.id))) throw notFound('Dashboard', params.id);
          publish('delete', { id: params.id });
        },
        getAppWidgets: () => Object.fromEntries(widgets.list().map((w) => [w.id, widgetToWire(w)])),
        getAppWidget: ({ params }) => widgetToWire(findWidget(params.id)),
        getAppWidgetAutocomplete: async ({ params, query }) => {
          const widget = findWidget(params.id);
          if (!widget.autocomplete) throw notFound('Autocomplete setting', query.settingId);
          let settings: Record<string, unknown> = {};
          if (query.settings) {
            try {
              settings = JSON.parse(query.settings) as Record<string, unknown>;
            } catch {
              throw invalidParameter('settings', 'Must be a JSON object');
            }
          }
          return widget.autocomplete({ settingId: query.settingId, query: query.query, settings });
        },
        getWidgetStores: () => Object.fromEntries(stores.list().map((s) => [s.id, s])),
        getWidgetStore: ({ params }) => findStore(params.id),
        getWidgetStoreState: ({ params }) => findStore(params.id).state,
        setWidgetStoreState: ({ params, body }) => {
          const store = transact(context.db, () => {
            const current = stores.get(params.id);
            const next = {
              id: params.id,
              state: body.replace || !current ? body.state : { ...current.state, ...body.state },
              updatedAt: isoNow(context.clock),
            };
            return current ? stores.save(next) : stores.insert(next);
          });
          context.events.entity('dashboards', 'widgetstore', 'update', store, READ_SCOPE);
          return store.state;
        },
      }),
    };
  },
};

function notFoundThrow(what: string, id: string): never {
  throw notFound(what, id);
}
