import { createRequire } from 'node:module';
import type { CapabilityDefinition, ChartType } from './capabilities';

/**
 * Facts of the ecosystem (its system capabilities, its device classes), read from its own library `homey-lib`
 * (npm, version pinned in packages/hub/package.json). Nothing of it is copied into Hearth: this file maps its
 * definitions into the catalogue's form.
 *
 * Licence: homey-lib's package.json says ISC, but that field is unchanged since the repository's first commit
 * (cd27692, 2015-07-13, npm's default), while the GPL-3.0 LICENSE file was added on purpose by the vendor
 * (3a3a48f, 2017-05-03, "Update contributing guidelines and License", with a contributor licence agreement) and
 * ships in the 2.52.2 tarball. Read as GPL-3.0, it does not belong in what the hub ships: manifest validation
 * already does without it (manifest-ecosystem.ts; homey-lib judges it only in tests). The capability catalogue,
 * device classes and device cards read here still load it at run time, and are to move to data of Hearth's own.
 */

type Texts = string | Record<string, string>;

/** The fields of a capability definition in `homey-lib` that the catalogue takes. */
interface EcosystemCapability {
  readonly type: CapabilityDefinition['type'];
  readonly title: Texts;
  readonly desc?: Texts;
  readonly units?: Texts;
  readonly getable?: boolean;
  readonly setable?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly decimals?: number;
  readonly chartType?: ChartType;
  readonly values?: readonly { id: string; title: Texts }[];
  readonly uiComponent?: string | null;
}

const english = (text: Texts | undefined): string | undefined =>
  text === undefined ? undefined : typeof text === 'string' ? text : (text.en ?? Object.values(text)[0]);

/** Ecosystem ui components the household web app draws as one of its own. */
const shownAs: Record<string, CapabilityDefinition['uiComponent']> = {
  toggle: 'toggle',
  slider: 'slider',
  sensor: 'sensor',
  thermostat: 'thermostat',
  button: 'button',
  picker: 'picker',
  media: 'media',
  color: 'color',
  battery: 'sensor',
  ternary: 'picker',
};

/** One ecosystem definition in the catalogue's form (English texts, as the catalogue's are). */
export function fromEcosystem(id: string, capability: EcosystemCapability): CapabilityDefinition {
  const ui = capability.uiComponent ? shownAs[capability.uiComponent] : undefined;
  const desc = english(capability.desc);
  const units = english(capability.units);
  return Object.freeze({
    id,
    type: capability.type,
    title: english(capability.title) ?? id,
    getable: capability.getable ?? true,
    setable: capability.setable ?? true,
    ...(desc !== undefined ? { desc } : {}),
    ...(units !== undefined ? { units } : {}),
    ...(capability.min !== undefined ? { min: capability.min } : {}),
    ...(capability.max !== undefined ? { max: capability.max } : {}),
    ...(capability.step !== undefined ? { step: capability.step } : {}),
    ...(capability.decimals !== undefined ? { decimals: capability.decimals } : {}),
    ...(capability.chartType !== undefined ? { chartType: capability.chartType } : {}),
    ...(capability.values
      ? { values: capability.values.map((value) => ({ id: value.id, title: english(value.title) ?? value.id })) }
      : {}),
    ...(ui ? { uiComponent: ui } : {}),
  });
}

/** A device flow card a capability of the ecosystem defines (its `$flow`). */
interface EcosystemFlowCard {
  readonly id: string;
  readonly title: Texts;
  readonly args?: readonly {
    name: string;
    type: string;
    title?: Texts;
    min?: number;
    max?: number;
    step?: number;
    values?: readonly { id: string; title: Texts }[];
  }[];
  readonly $filter?: { readonly class?: string };
}

/** A condition or action card of a capability, with English texts; `classes` limits it to devices of those classes. */
export interface CapabilityFlowCard {
  readonly id: string;
  readonly title: string;
  readonly args: readonly {
    name: string;
    type: string;
    title?: string;
    min?: number;
    max?: number;
    step?: number;
    values?: { id: string; title: string }[];
  }[];
  readonly classes?: readonly string[];
}

interface HomeyLib {
  getCapabilities(): Record<string, EcosystemCapability & { $flow?: Record<string, EcosystemFlowCard[]> }>;
  getDeviceClasses(): Record<string, unknown>;
}
let library: HomeyLib | undefined;
const homeyLib = (): HomeyLib => {
  library ??= createRequire(import.meta.url)('homey-lib') as HomeyLib;
  return library;
};

/** Every system capability of the ecosystem, in the catalogue's form, in the library's order. */
export function ecosystemCapabilities(): CapabilityDefinition[] {
  return Object.entries(homeyLib().getCapabilities()).map(([id, capability]) => fromEcosystem(id, capability));
}

let classes: ReadonlySet<string> | undefined;

/** The ecosystem's device classes (`socket`, `light`, `airpurifier`, …): a driver's `class` is one of them. */
export function deviceClasses(): ReadonlySet<string> {
  classes ??= new Set(Object.keys(homeyLib().getDeviceClasses()));
  return classes;
}

const flowCards = new Map<string, { conditions: CapabilityFlowCard[]; actions: CapabilityFlowCard[] }>();

/** The condition and action cards the ecosystem defines for a system capability (none for others). */
export function capabilityFlowCards(capabilityId: string): { conditions: CapabilityFlowCard[]; actions: CapabilityFlowCard[] } {
  let known = flowCards.get(capabilityId);
  if (!known) {
    const flow = homeyLib().getCapabilities()[capabilityId]?.$flow ?? {};
    const convert = (card: EcosystemFlowCard): CapabilityFlowCard => ({
      id: card.id,
      title: english(card.title) ?? card.id,
      args: (card.args ?? []).map(({ title, values, ...arg }) => ({
        ...arg,
        ...(title !== undefined ? { title: english(title) as string } : {}),
        ...(values ? { values: values.map((v) => ({ id: v.id, title: english(v.title) ?? v.id })) } : {}),
      })),
      ...(card.$filter?.class ? { classes: card.$filter.class.split('|') } : {}),
    });
    known = { conditions: (flow.conditions ?? []).map(convert), actions: (flow.actions ?? []).map(convert) };
    flowCards.set(capabilityId, known);
  }
  return known;
}

/**
 * A capability's title or units in `language` as the ecosystem words them, where it has them in that language
 * (English texts come from the catalogue itself); sub-capabilities (`measure_power.phase1`) take their base's.
 */
export function capabilityText(capabilityId: string, field: 'title' | 'units', language: string): string | undefined {
  if (language === 'en') return undefined;
  const text = homeyLib().getCapabilities()[capabilityId.split('.')[0] ?? capabilityId]?.[field];
  return typeof text === 'object' ? text[language] : undefined;
}
