import { Type } from 'typebox';
import { op, open } from './apps-helpers';
import { APPS_LIMITS, AppDriver, AppSummary } from './apps-records';
import { appsExamples } from './examples';

const Language = Type.String({ pattern: '^[a-z]{2}(-[A-Za-z]{2})?$' });
const Apps = Type.Array(AppSummary);
const DriverMatch = open({ app: AppSummary, driver: AppDriver });
const HubFilters = {
  homeyVersion: Type.Optional(Type.String({ maxLength: 64 })),
  homeyPlatform: Type.Optional(Type.String({ maxLength: 20 })),
  homeyMinimumSdkVersion: Type.Optional(Type.Number()),
};
const Hints = Type.Array(Type.Union([Type.String({ maxLength: 500 }), open({})]), { maxItems: 200 });

/** Finding live apps: pages of the catalogue, search, driver lookups by radio ids, browsing, highlights, counts. */
export const appSearchOperations = {
  getApps: op({
    name: 'getApps',
    examples: appsExamples.getApps,
    method: 'GET',
    path: '/app',
    scope: null,
    auth: false,
    query: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
      count: Type.Optional(Type.Integer({ minimum: 1, maximum: APPS_LIMITS.maxPageCount, default: 20 })),
      category: Type.Optional(Type.String({ maxLength: 100 })),
      author: Type.Optional(Type.String({ maxLength: 100 })),
    }),
    response: Apps,
    summary: 'Live apps, newest first, a page at a time; the total is in the `X-Total-Count` header.',
  }),
  searchApps: op({
    name: 'searchApps',
    method: 'GET',
    path: '/app/search',
    scope: null,
    auth: false,
    query: Type.Object({
      query: Type.String({ minLength: APPS_LIMITS.minQueryLength, maxLength: APPS_LIMITS.maxQueryLength }),
      language: Type.Optional(Language),
      homeyVersion: Type.Optional(Type.String({ maxLength: 64 })),
      homeyPlatform: Type.Optional(Type.String({ maxLength: 20 })),
      homeyPlatformVersion: Type.Optional(Type.String({ pattern: '^\\d{1,6}(\\.\\d{1,6}){0,2}$' })),
      homeyModel: Type.Optional(Type.String({ maxLength: 100 })),
    }),
    response: Apps,
    summary:
      'Live apps with a word matching each query word (exactly, as a prefix or with one typo) in their name (any ' +
      'language), id or description (in `language`, else English); names in `language` first. Only apps whose live ' +
      'build suits the hub: `homeyVersion` in its compatibility range, `homeyPlatform`, `homeyPlatformVersion` (the ' +
      "version of the hub's platform, its generation such as `1` or `2`) in the build's `platformCompatibility` range " +
      "for the hub's platform (from `homeyPlatform` or `homeyModel`, else any platform the app runs on; no range " +
      'accepts any), and `homeyModel` (its platform and hardware against `platformLocalRequiredFeatures`).',
  }),
  searchZigbeeDriver: op({
    name: 'searchZigbeeDriver',
    method: 'POST',
    path: '/app/search-zigbee-driver',
    scope: null,
    auth: false,
    query: Type.Object({ language: Type.Optional(Language) }),
    body: Type.Object({
      ...HubFilters,
      productId: Type.String({ minLength: 1, maxLength: 200 }),
      manufacturerName: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    response: Type.Array(DriverMatch),
    summary: 'Live drivers whose `zigbee` section lists this manufacturer name and product id.',
  }),
  searchZwaveDriver: op({
    name: 'searchZwaveDriver',
    method: 'POST',
    path: '/app/search-zwave-driver',
    scope: null,
    auth: false,
    query: Type.Object({ language: Type.Optional(Language) }),
    body: Type.Object({
      ...HubFilters,
      productId: Type.Integer({ minimum: 0 }),
      productTypeId: Type.Integer({ minimum: 0 }),
      manufacturerId: Type.Integer({ minimum: 0 }),
    }),
    response: Type.Array(DriverMatch),
    summary: 'Live drivers whose `zwave` section lists this manufacturer, product type and product id.',
  }),
  searchMatterDriver: op({
    name: 'searchMatterDriver',
    method: 'POST',
    path: '/app/search-matter-driver',
    scope: null,
    auth: false,
    query: Type.Object({ language: Type.Optional(Language) }),
    body: Type.Object({
      ...HubFilters,
      productId: Type.Integer({ minimum: 0 }),
      vendorId: Type.Integer({ minimum: 0 }),
    }),
    response: Type.Array(DriverMatch),
    summary: 'Live drivers whose `matter` section lists this vendor and product id.',
  }),
  browseApps: op({
    name: 'browseApps',
    method: 'GET',
    path: '/app/browse',
    scope: null,
    auth: false,
    query: Type.Object({
      query: Type.Optional(Type.String({ maxLength: APPS_LIMITS.maxQueryLength })),
      language: Type.Optional(Language),
      platform: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
      connectivity: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 20 })),
      category: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
      features: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: APPS_LIMITS.maxPageCount, default: 24 })),
      offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    }),
    response: Type.Object({ total: Type.Number(), apps: Apps }),
    summary:
      'Live apps with any of the asked platforms, driver connectivities and categories and every asked feature ' +
      '(`flow`, `drivers`, `settings`), a page at a time with the `total` of matches: newest first, or with `query` ' +
      "the search's answer (in `language`) filtered the same way.",
  }),
  syncApps: op({
    name: 'syncApps',
    method: 'POST',
    path: '/app/sync',
    scope: null,
    response: Type.Object({ apps: Type.Number(), keys: Type.Number() }),
    errors: ['forbidden'],
    summary: "Rebuilds the catalogue's search index from the live builds (the provider only).",
  }),
  getAppsSummary: op({
    name: 'getAppsSummary',
    method: 'GET',
    path: '/app/summary',
    scope: null,
    auth: false,
    query: Type.Object({ secret: Type.String({ minLength: 1, maxLength: 500 }) }),
    response: open({
      apps: Type.Number(),
      liveApps: Type.Number(),
      builds: Type.Number(),
      pendingSubmissions: Type.Number(),
      reviews: Type.Number(),
      crashes: Type.Number(),
      installs: Type.Number(),
    }),
    errors: ['forbidden'],
    summary: "Counts of the catalogue for the provider's dashboards; `secret` is the internal client secret.",
  }),
  getHighlightedApps: op({
    name: 'getHighlightedApps',
    method: 'GET',
    path: '/app/highlight',
    scope: null,
    auth: false,
    query: Type.Object({ platforms: Type.Optional(Type.String({ maxLength: 100 })) }),
    response: Apps,
    summary: 'Highlighted live apps; `platforms` is a comma-separated filter (`local,cloud`).',
  }),
  getHighlightedAppsV2: op({
    name: 'getHighlightedAppsV2',
    method: 'GET',
    path: '/app/highlight2',
    scope: null,
    auth: false,
    query: Type.Object({
      platform: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
      language: Type.Optional(Language),
      tags: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })),
    }),
    response: Type.Array(open({ title: Type.String(), apps: Apps })),
    summary:
      'Highlighted live apps grouped by category, filtered by platform and tags (categories). With `language` each ' +
      "app's `name` and `description` are the text in that language (`nl-BE`, then `nl`), else English.",
  }),
  getMyApps: op({
    name: 'getMyApps',
    method: 'GET',
    path: '/app/me',
    scope: null,
    response: Apps,
    errors: ['forbidden'],
    summary: "The signed-in developer's apps, published or not.",
  }),
  getAllLiveAppIDs: op({
    name: 'getAllLiveAppIDs',
    method: 'GET',
    path: '/app/ids',
    scope: null,
    auth: false,
    response: Type.Array(Type.String()),
    summary: 'The ids of every live app.',
  }),
  getAllLiveApps: op({
    name: 'getAllLiveApps',
    method: 'GET',
    path: '/app/all',
    scope: null,
    auth: false,
    response: Apps,
    summary: 'Every live app.',
  }),
} as const;

/** Live apps that match what a hub sees on its network. */
export const appDiscoveryOperations = {
  discoverApps: op({
    name: 'discoverApps',
    method: 'POST',
    path: '/discover',
    scope: null,
    auth: false,
    body: Type.Object({
      ssdp: Type.Optional(Hints),
      ble: Type.Optional(Hints),
      mac: Type.Optional(Hints),
      'mdns-sd': Type.Optional(Hints),
    }),
    response: Type.Array(open({ app: AppSummary, strategies: Type.Array(Type.String()) })),
    summary: 'Live apps whose discovery strategies match what a hub sees on its network (ssdp, ble, mac, mdns-sd).',
  }),
} as const;
