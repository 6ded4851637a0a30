import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, IdParams, OpenObject, UuidKeyed, UuidParams } from './options';

const op = hubManager('dashboards');

/** Older form: columns of widget references. */
export const DashboardColumns = Type.Array(
  Type.Object({
    id: Type.String({ minLength: 1 }),
    widgets: Type.Array(Type.Object({ id: Type.String({ minLength: 1 }) }, { additionalProperties: true })),
  }),
);
/** Newer form: widgets and lines placed on a canvas, each keyed by a uuid. */
export const DashboardWidgets = UuidKeyed(
  Type.Object({
    type: Type.String({ minLength: 1 }),
    x: Type.Number(),
    y: Type.Number(),
    width: Type.Number({ minimum: 0 }),
    height: Type.Number({ minimum: 0 }),
    settings: Type.Optional(OpenObject),
  }),
);
export const DashboardLines = UuidKeyed(
  Type.Object({
    x1: Type.Number(),
    x2: Type.Number(),
    y1: Type.Number(),
    y2: Type.Number(),
    settings: Type.Optional(OpenObject),
  }),
);

export const Dashboard = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    columns: Type.Optional(DashboardColumns),
    widgets: Type.Optional(DashboardWidgets),
    lines: Type.Optional(DashboardLines),
  },
  { additionalProperties: true },
);

export const DashboardCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  columns: Type.Optional(DashboardColumns),
  widgets: Type.Optional(DashboardWidgets),
  lines: Type.Optional(DashboardLines),
});
export const DashboardUpdate = Type.Partial(DashboardCreate);

export const AppWidget = Type.Object(
  {
    id: Type.String(),
    ownerId: Type.String(),
    ownerUri: Type.String(),
    ownerName: Type.String(),
    name: Type.String(),
    settings: Type.Array(OpenObject),
    height: Type.Union([Type.Null(), Type.Number()]),
  },
  { additionalProperties: true },
);

export const WidgetStore = Type.Object({ id: Type.String(), state: OpenObject, updatedAt: Type.String() });

/** Like moods, dashboards follow the wire table (not private): see moods.ts. */
export const dashboardsOperations = {
  getState: declareState(op),
  getDashboards: op({
    name: 'getDashboards',
    summary: 'Every dashboard of the hub, by id, with its columns, widgets and lines.',
    method: 'GET',
    path: '/dashboard',
    scope: 'homey.dashboard.readonly',
    response: Type.Record(Type.String(), Dashboard),
  }),
  getDashboard: op({
    name: 'getDashboard',
    summary: 'One dashboard with its columns, widgets and lines.',
    method: 'GET',
    path: '/dashboard/:id',
    scope: 'homey.dashboard.readonly',
    params: UuidParams,
    response: Dashboard,
  }),
  createDashboard: op({
    name: 'createDashboard',
    summary: 'Creates a dashboard from its name, columns, widgets and lines; answers it with its new id.',
    method: 'POST',
    path: '/dashboard',
    scope: 'homey.dashboard',
    body: DashboardCreate,
    bodyRoot: 'dashboard',
    response: Dashboard,
  }),
  updateDashboard: op({
    name: 'updateDashboard',
    summary: 'Renames a dashboard or replaces its columns, widgets or lines; answers the dashboard.',
    method: 'PUT',
    path: '/dashboard/:id',
    scope: 'homey.dashboard',
    params: UuidParams,
    body: DashboardUpdate,
    bodyRoot: 'dashboard',
    response: Dashboard,
  }),
  deleteDashboard: op({
    name: 'deleteDashboard',
    summary: 'Deletes a dashboard and its widgets.',
    method: 'DELETE',
    path: '/dashboard/:id',
    scope: 'homey.dashboard',
    params: UuidParams,
  }),
  getAppWidgets: op({
    name: 'getAppWidgets',
    summary: 'Every widget the installed apps offer for dashboards, by id, with its settings and height.',
    method: 'GET',
    path: '/appwidget',
    scope: 'homey.dashboard.readonly',
    response: Type.Record(Type.String(), AppWidget),
  }),
  getAppWidget: op({
    name: 'getAppWidget',
    summary: 'One app widget: its app, name, settings and height.',
    method: 'GET',
    path: '/appwidget/:id',
    scope: 'homey.dashboard.readonly',
    params: IdParams,
    response: AppWidget,
  }),
  getAppWidgetAutocomplete: op({
    name: 'getAppWidgetAutocomplete',
    summary: "Suggestions the widget's app gives for an autocomplete setting while the user types.",
    method: 'GET',
    path: '/appwidget/:id/autocomplete',
    scope: 'homey.dashboard.readonly',
    params: IdParams,
    query: Type.Object({
      settingId: Type.String({ minLength: 1 }),
      query: Type.String(),
      settings: Type.Optional(Type.String()),
    }),
    response: Type.Array(OpenObject),
  }),
  getWidgetStores: op({
    name: 'getWidgetStores',
    summary: 'The stored state of every widget on the dashboards, by widget id.',
    method: 'GET',
    path: '/widgetstore',
    scope: 'homey.dashboard.readonly',
    response: Type.Record(Type.String(), WidgetStore),
  }),
  getWidgetStore: op({
    name: 'getWidgetStore',
    summary: "One widget's store: its stored state and when it last changed.",
    method: 'GET',
    path: '/widgetstore/:id',
    scope: 'homey.dashboard.readonly',
    params: IdParams,
    response: WidgetStore,
  }),
  getWidgetStoreState: op({
    name: 'getWidgetStoreState',
    summary: 'Only the stored state of one widget.',
    method: 'GET',
    path: '/widgetstore/:id/state',
    scope: 'homey.dashboard.readonly',
    params: IdParams,
    response: OpenObject,
  }),
  setWidgetStoreState: op({
    name: 'setWidgetStoreState',
    method: 'POST',
    path: '/widgetstore/:id/state',
    scope: 'homey.dashboard.readonly',
    params: IdParams,
    body: Type.Object({ state: OpenObject, replace: Type.Optional(Type.Boolean()) }),
    response: OpenObject,
    summary: "Merges (or with `replace`, replaces) a widget's stored state.",
  }),
} as const;

/** Wire events of the dashboards manager. */
export const dashboardsEvents = managerEvents('dashboards', {
  events: { ...entityEvents('dashboard', Dashboard), 'widgetstore.update': WidgetStore },
});
