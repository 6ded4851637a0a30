import { type Static, Type } from 'typebox';

/**
 * The app manifest (`app.json`) of the Apps SDK v3, as far as the hub reads it. Unknown fields are kept (an
 * app may carry fields for other tools); the fields the hub uses are checked.
 */

/** A text given once or per language: `"Socket"` or `{ "en": "Socket", "nl": "Stopcontact" }`. */
export const Translated = Type.Union([Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.String())]);

const open = { additionalProperties: true } as const;
/** An app id as the ecosystem allows it (letters of either case, digits, `_`, `-`), without empty parts. */
const ManifestId = Type.String({ pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+$' });
const LocalId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$', maxLength: 100 });

/** A pair, repair or unpair view: a system template or a custom view (`drivers/<id>/pair/<view>.html`). */
export const PairView = Type.Object(
  {
    id: LocalId,
    template: Type.Optional(Type.String({ minLength: 1 })),
    navigation: Type.Optional(
      Type.Object({ prev: Type.Optional(LocalId), next: Type.Optional(LocalId) }, { additionalProperties: false }),
    ),
    options: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  open,
);
export type PairView = Static<typeof PairView>;

export const FlowArgument = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    type: Type.Union(
      [
        'device',
        'text',
        'autocomplete',
        'date',
        'time',
        'color',
        'checkbox',
        'code',
        'number',
        'range',
        'dropdown',
        'multiselect',
      ].map((t) => Type.Literal(t)),
    ),
    title: Type.Optional(Translated),
    placeholder: Type.Optional(Translated),
    filter: Type.Optional(Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())])),
    // Only `id` is required in the ecosystem; apps name the choice with `title` or `label`.
    values: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), title: Type.Optional(Translated), label: Type.Optional(Translated) }, open)),
    ),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    step: Type.Optional(Type.Number()),
  },
  open,
);

export const FlowToken = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    /** A string token when left out, as in the ecosystem. */
    type: Type.Optional(
      Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('image')]),
    ),
    title: Translated,
    example: Type.Optional(Type.Unknown()),
  },
  open,
);

export const FlowCard = Type.Object(
  {
    id: LocalId,
    title: Translated,
    titleFormatted: Type.Optional(Translated),
    hint: Type.Optional(Translated),
    args: Type.Optional(Type.Array(FlowArgument)),
    tokens: Type.Optional(Type.Array(FlowToken)),
    deprecated: Type.Optional(Type.Boolean()),
    highlight: Type.Optional(Type.Boolean()),
    advanced: Type.Optional(Type.Boolean()),
    platforms: Type.Optional(Type.Array(Type.String())),
    droptoken: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  },
  open,
);
export type FlowCardManifest = Static<typeof FlowCard>;

const Setting = Type.Object({ id: Type.Optional(Type.String({ minLength: 1 })), type: Type.String({ minLength: 1 }) }, open);

export const DriverManifest = Type.Object(
  {
    // Any string, as in the ecosystem (`LivingRoomSensor`); it names the driver's folder, so no separators.
    id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^/\\\\.][^/\\\\]*$' }),
    name: Translated,
    class: Type.String({ minLength: 1 }),
    capabilities: Type.Array(Type.String({ minLength: 1 })),
    capabilitiesOptions: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
    connectivity: Type.Optional(Type.Array(Type.String())),
    pair: Type.Optional(Type.Array(PairView)),
    repair: Type.Optional(Type.Array(PairView)),
    unpair: Type.Optional(Type.Array(PairView)),
    settings: Type.Optional(Type.Array(Setting)),
    images: Type.Optional(Type.Object({ small: Type.String(), large: Type.String() }, open)),
    energy: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    platforms: Type.Optional(Type.Array(Type.String())),
  },
  open,
);
export type DriverManifest = Static<typeof DriverManifest>;

/** A route of the app's web API (`api` block), served at `/api/app/<appId><path>`; handlers live in `api.js`. */
export const ApiRoute = Type.Object(
  {
    // Apps write the method in either case (`"get"`, `"POST"`); the hub matches it case-insensitively.
    method: Type.Union([
      Type.Literal('GET'),
      Type.Literal('POST'),
      Type.Literal('PUT'),
      Type.Literal('DELETE'),
      Type.Literal('get'),
      Type.Literal('post'),
      Type.Literal('put'),
      Type.Literal('delete'),
    ]),
    path: Type.String({ pattern: '^/[A-Za-z0-9_\\-/:.]*$', maxLength: 200 }),
    public: Type.Optional(Type.Boolean()),
  },
  open,
);
export type ApiRoute = Static<typeof ApiRoute>;

export const AppManifest = Type.Object(
  {
    id: ManifestId,
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$' }),
    /** 3 when not given, as in the ecosystem. */
    sdk: Type.Optional(Type.Literal(3)),
    compatibility: Type.Optional(Type.String({ minLength: 1 })),
    runtime: Type.Optional(Type.Union([Type.Literal('nodejs'), Type.Literal('python')])),
    platforms: Type.Optional(Type.Array(Type.Union([Type.Literal('local'), Type.Literal('cloud')]))),
    name: Translated,
    description: Type.Optional(Translated),
    category: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    author: Type.Object({ name: Type.String({ minLength: 1 }), email: Type.Optional(Type.String()) }, open),
    brandColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
    permissions: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    drivers: Type.Optional(Type.Array(DriverManifest)),
    capabilities: Type.Optional(Type.Record(Type.String(), Type.Object({ type: Type.String() }, open))),
    flow: Type.Optional(
      Type.Object(
        {
          triggers: Type.Optional(Type.Array(FlowCard)),
          conditions: Type.Optional(Type.Array(FlowCard)),
          actions: Type.Optional(Type.Array(FlowCard)),
        },
        open,
      ),
    ),
    api: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_$][A-Za-z0-9_$]*$' }), ApiRoute)),
    widgets: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  open,
);
export type AppManifest = Static<typeof AppManifest>;

/**
 * The system pair templates a hub shows itself (a custom view is an HTML file of the app). The radio views
 * (`zigbee_join`, `zwave_include`, `rf_learn`, `ir_learn`, `matter_code`) are the hub's joins of its radios:
 * `zwave_include` / `zwave_exclude` run the hub's Z-Wave controller for every driver with a `zwave` manifest
 * section; the others are stand-ins, whose event an app with code answers in its driver's `onPair`.
 */
export const PAIR_TEMPLATES = new Set([
  'list_devices',
  'add_devices',
  'loading',
  'done',
  'login_credentials',
  'pincode',
  'login_oauth2',
  'zigbee_join',
  'zwave_include',
  'zwave_exclude',
  'rf_learn',
  'ir_learn',
  'matter_code',
]);
