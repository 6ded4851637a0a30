import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { capabilityDefinition } from './capabilities';
import { deviceClasses } from './ecosystem';
import { ecosystemProblems } from './manifest-ecosystem';

/** A text given once or per language: `"Socket"` or `{ "en": "Socket", "nl": "Stopcontact" }`. */
export const Translated = Type.Union([Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.String())]);
export type TranslatedText = Static<typeof Translated>;

export const Connectivity = Type.Enum([
  'zigbee',
  'zwave',
  'infrared',
  '433',
  '868',
  // The ecosystem's names of the two radio bands.
  'rf433',
  'rf868',
  'ble',
  'wifi',
  'lan',
  'cloud',
  'matter',
  'thread',
  'virtual',
]);

/**
 * A driver or app setting. The ecosystem's groups (`type: "group"`) carry only a label and their `children`, no
 * id; every other setting needs an id (checked in {@link checkManifest}, which can name the one that lacks it).
 */
const Setting = Type.Object(
  {
    id: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Number()])),
    type: Type.Enum([
      'text',
      'password',
      'textarea',
      'label',
      'number',
      'slider',
      'radio',
      'dropdown',
      'checkbox',
      'color',
      'group',
    ]),
    label: Type.Optional(Translated),
    title: Type.Optional(Translated),
    value: Type.Optional(Type.Unknown()),
    hint: Type.Optional(Translated),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    units: Type.Optional(Translated),
    values: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), label: Type.Optional(Translated), title: Type.Optional(Translated) })),
    ),
    children: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true },
);
export type SettingManifest = Static<typeof Setting> & { id: string };

/** The settings a person can set, with the children of groups in place of their group (groups have no value). */
export function flatSettings(settings: readonly unknown[] | undefined): SettingManifest[] {
  const flat: SettingManifest[] = [];
  for (const setting of (settings ?? []) as (SettingManifest & { children?: unknown[] })[]) {
    if (setting.type === 'group') flat.push(...flatSettings(setting.children));
    else flat.push({ ...setting, id: String(setting.id) });
  }
  return flat;
}

/** Problems of a settings list the schema cannot name: a setting without id, a group without children. */
function settingProblems(settings: readonly unknown[] | undefined, path: string): string[] {
  const problems: string[] = [];
  ((settings ?? []) as Record<string, unknown>[]).forEach((setting, index) => {
    const at = `${path}/${index}`;
    if (setting.type === 'group') {
      if (!Array.isArray(setting.children)) problems.push(`${at}/children a group needs its children`);
      else if (!Value.Check(Type.Array(Setting), setting.children))
        problems.push(`${at}/children ${[...Value.Errors(Type.Array(Setting), setting.children)][0]?.message ?? 'invalid'}`);
      else problems.push(...settingProblems(setting.children, `${at}/children`));
    } else if (setting.id === undefined || setting.id === '') problems.push(`${at}/id a setting needs an id`);
  });
  return problems;
}

/** A capability an app declares in its manifest's `capabilities` block (for its own devices). */
export const AppCapabilityManifest = Type.Object(
  {
    type: Type.Enum(['boolean', 'number', 'string', 'enum']),
    title: Translated,
    desc: Type.Optional(Translated),
    getable: Type.Optional(Type.Boolean()),
    setable: Type.Optional(Type.Boolean()),
    units: Type.Optional(Translated),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    decimals: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    values: Type.Optional(Type.Array(Type.Object({ id: Type.String({ minLength: 1 }), title: Translated }))),
    titleTrue: Type.Optional(Translated),
    titleFalse: Type.Optional(Translated),
    uiComponent: Type.Optional(
      Type.Union([Type.Enum(['toggle', 'slider', 'sensor', 'thermostat', 'button', 'picker', 'media', 'color']), Type.Null()]),
    ),
  },
  { additionalProperties: true },
);
export type AppCapabilityManifest = Static<typeof AppCapabilityManifest>;

/** How the hub's simulation makes a driver's devices behave (Hearth's declarative stand-in for app code). */
export const Simulation = Type.Enum([
  'socket',
  'light',
  'thermostat',
  'sensor',
  'motion',
  'button',
  'camera',
  'switch',
  'tv',
  'blinds',
  'lock',
  'none',
]);
export type SimulationKind = Static<typeof Simulation>;

const PairView = Type.Object(
  { id: Type.String({ minLength: 1 }), template: Type.Optional(Type.String()), navigation: Type.Optional(Type.Unknown()) },
  { additionalProperties: true },
);

export const DriverManifest = Type.Object(
  {
    // Any string, as in the ecosystem (apps use ids such as `LivingRoomSensor`); it names the driver's folder.
    id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^/\\\\.][^/\\\\]*$' }),
    name: Translated,
    class: Type.String({ minLength: 1 }),
    capabilities: Type.Array(Type.String({ minLength: 1 })),
    capabilitiesOptions: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
    connectivity: Type.Optional(Type.Array(Connectivity)),
    energy: Type.Optional(
      Type.Object(
        {
          approximation: Type.Optional(
            Type.Object({
              usageOn: Type.Optional(Type.Number({ minimum: 0 })),
              usageOff: Type.Optional(Type.Number({ minimum: 0 })),
              usageConstant: Type.Optional(Type.Number({ minimum: 0 })),
            }),
          ),
          cumulative: Type.Optional(Type.Boolean()),
          batteries: Type.Optional(Type.Array(Type.String())),
        },
        { additionalProperties: true },
      ),
    ),
    pair: Type.Optional(Type.Array(PairView)),
    unpair: Type.Optional(Type.Array(PairView)),
    repair: Type.Optional(Type.Array(PairView)),
    settings: Type.Optional(Type.Array(Setting)),
    deprecated: Type.Optional(Type.Boolean()),
    simulation: Type.Optional(Simulation),
    images: Type.Optional(Type.Object({ small: Type.String(), large: Type.String() })),
  },
  { additionalProperties: true },
);
export type DriverManifest = Static<typeof DriverManifest>;

const FlowCard = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    title: Translated,
    hint: Type.Optional(Translated),
    args: Type.Optional(Type.Array(Type.Unknown())),
    tokens: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true },
);

/** The manifest (`app.json`) of an app package. */
export const AppManifest = Type.Object(
  {
    // As the ecosystem's (letters of either case, digits, `_`, `-`; two parts or more), but no empty part: the id
    // names the app's folders.
    id: Type.String({ pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+$' }),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$' }),
    /** 3 when not given, as in the ecosystem. */
    sdk: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)])),
    compatibility: Type.Optional(Type.String()),
    name: Translated,
    description: Type.Optional(Translated),
    category: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    author: Type.Object(
      { name: Type.String({ minLength: 1 }), email: Type.Optional(Type.String()) },
      { additionalProperties: true },
    ),
    brandColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
    permissions: Type.Optional(Type.Array(Type.String())),
    support: Type.Optional(Type.String()),
    bugs: Type.Optional(Type.Object({ url: Type.String() })),
    homeyCommunityTopicId: Type.Optional(Type.Integer({ minimum: 1 })),
    images: Type.Optional(Type.Object({ small: Type.String(), large: Type.String() })),
    drivers: Type.Optional(Type.Array(DriverManifest)),
    capabilities: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9_.]*$' }), AppCapabilityManifest)),
    flow: Type.Optional(
      Type.Object({
        triggers: Type.Optional(Type.Array(FlowCard)),
        conditions: Type.Optional(Type.Array(FlowCard)),
        actions: Type.Optional(Type.Array(FlowCard)),
      }),
    ),
    settings: Type.Optional(Type.Array(Setting)),
    locales: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
    /** The ecosystem's runtime of the app's code. */
    runtime: Type.Optional(Type.Enum(['nodejs', 'python'])),
    /**
     * Hearth's own: how its simulation plays an app without code (how long it takes to start, whether and how it
     * crashes). Not a field of the ecosystem's manifest, which owns `runtime`.
     */
    simulation: Type.Optional(
      Type.Object({
        startupMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
        crash: Type.Optional(
          Type.Object({
            afterMs: Type.Integer({ minimum: 0 }),
            message: Type.String(),
            exitCode: Type.Optional(Type.Integer()),
            exitSignal: Type.Optional(Type.String()),
          }),
        ),
        memoryMb: Type.Optional(Type.Number({ minimum: 0 })),
        log: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  },
  { additionalProperties: true },
);
export type AppManifest = Static<typeof AppManifest>;

/**
 * Checks a manifest; answers a readable list of problems (empty when valid). An app from outside (`ecosystem`: the
 * developer kit) is also held to what the ecosystem's validator checks, with the files of its folder `dir`.
 */
export function checkManifest(manifest: unknown, from: { ecosystem?: boolean; dir?: string } = {}): string[] {
  if (!Value.Check(AppManifest, manifest)) {
    return [...Value.Errors(AppManifest, manifest)].slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`.trim());
  }
  const problems: string[] = from.ecosystem ? ecosystemProblems(manifest, from.dir) : [];
  problems.push(...settingProblems(manifest.settings, '/settings'));
  const own = manifest.capabilities ?? {};
  for (const [id, capability] of Object.entries(own)) {
    if (capabilityDefinition(id))
      problems.push(`/capabilities/${id}: ${id} is a capability of the hub; name the app's own differently`);
    if (capability.type === 'enum' && !capability.values?.length)
      problems.push(`/capabilities/${id}/values: an enum capability needs values`);
  }
  const seen = new Set<string>();
  for (const driver of manifest.drivers ?? []) {
    if (seen.has(driver.id)) problems.push(`/drivers: driver id ${driver.id} is declared twice`);
    seen.add(driver.id);
    problems.push(...settingProblems(driver.settings, `/drivers/${driver.id}/settings`));
    if (!deviceClasses().has(driver.class))
      problems.push(`/drivers/${driver.id}/class: ${driver.class} is not a device class of the ecosystem`);
    for (const capability of driver.capabilities) {
      if (!capabilityDefinition(capability) && !own[capability])
        problems.push(`/drivers/${driver.id}: unknown capability ${capability}`);
    }
  }
  return problems;
}

/** Picks the text for `language` from a translated value, falling back to English, then to any. */
export function translate(text: TranslatedText | undefined, language: string): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[language] ?? text.en ?? Object.values(text)[0] ?? '';
}

/** An app package on disk: its folder and parsed manifest. */
export interface AppPackage {
  readonly dir: string;
  readonly manifest: AppManifest;
  readonly builtin: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The folder of app packages shipped with the hub, `packages/hub/apps`: two levels up from this source file,
 * one level up from the bundled `dist/main.js` that `npm start` runs.
 */
export const appsRoot =
  [resolve(here, '../../apps'), resolve(here, '../apps')].find((dir) => existsSync(join(dir, 'builtin'))) ??
  resolve(here, '../../apps');

/** Reads one package folder (`app.json`); throws with the problems when the manifest is invalid. */
export function readPackage(dir: string, builtin: boolean): AppPackage {
  const manifest = JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')) as unknown;
  const problems = checkManifest(manifest);
  if (problems.length > 0) throw new Error(`Invalid app manifest in ${dir}:\n- ${problems.join('\n- ')}`);
  return { dir, manifest: manifest as AppManifest, builtin };
}

/** Every package in a folder of packages (one sub-folder per app). */
export function readPackages(root: string, builtin: boolean): AppPackage[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'app.json')))
    .map((entry) => readPackage(join(root, entry.name), builtin))
    .sort((a, b) => a.manifest.id.localeCompare(b.manifest.id));
}
