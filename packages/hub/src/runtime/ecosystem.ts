import type { CapabilityDefinition } from './capabilities';
import { type CatalogueCard, type CatalogueEntry, deviceClassIds, systemCapabilities } from './catalogue';

/**
 * The ecosystem's system capabilities, device classes and device cards, in the forms the hub uses, read from
 * Hearth's own catalogue (./catalogue). The ecosystem's library `homey-lib` is not loaded here: its licence file is
 * the GPL-3.0 text (its package.json's ISC field is npm's default from its first commit), so it is only a
 * development dependency, the reference the catalogue's test compares against.
 */

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

/** One catalogue entry in the form the capability catalogue uses. */
function definition(id: string, entry: CatalogueEntry): CapabilityDefinition {
  const { titles: _titles, unitsIn: _unitsIn, insights: _insights, conditions: _c, actions: _a, uiComponent, ...facts } = entry;
  const ui = uiComponent ? shownAs[uiComponent] : undefined;
  return Object.freeze({ id, ...facts, ...(ui ? { uiComponent: ui } : {}) });
}

/** Every system capability of the ecosystem, in the catalogue's form. */
export function ecosystemCapabilities(): CapabilityDefinition[] {
  return Object.entries(systemCapabilities).map(([id, entry]) => definition(id, entry));
}

const classes: ReadonlySet<string> = new Set(deviceClassIds);

/** The ecosystem's device classes (`socket`, `light`, `airpurifier`, …): a driver's `class` is one of them. */
export function deviceClasses(): ReadonlySet<string> {
  return classes;
}

/** A condition or action card of a capability; `classes` limits it to devices of those classes. */
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

const flowCards = new Map<string, { conditions: CapabilityFlowCard[]; actions: CapabilityFlowCard[] }>();

/** The condition and action cards the ecosystem defines for a system capability (none for others). */
export function capabilityFlowCards(capabilityId: string): { conditions: CapabilityFlowCard[]; actions: CapabilityFlowCard[] } {
  const entry = Object.hasOwn(systemCapabilities, capabilityId) ? systemCapabilities[capabilityId] : undefined;
  if (!entry) return { conditions: [], actions: [] };
  let known = flowCards.get(capabilityId);
  if (!known) {
    // A dropdown offers the capability's own values; `meta.$values` says so to the ecosystem's clients.
    const values = entry.values?.map((value) => ({ ...value }));
    const convert = ({ args, ...card }: CatalogueCard): CapabilityFlowCard => ({
      ...card,
      args: (args ?? []).map((arg) => (arg.type === 'dropdown' ? { ...arg, values, meta: { $values: true } } : { ...arg })),
    });
    known = { conditions: (entry.conditions ?? []).map(convert), actions: (entry.actions ?? []).map(convert) };
    flowCards.set(capabilityId, known);
  }
  return known;
}

/**
 * A system capability's title or units in `language` where the catalogue words them otherwise than in English
 * (English texts come from the capability catalogue itself); sub-capabilities (`measure_power.phase1`) take their base's.
 */
export function capabilityText(capabilityId: string, field: 'title' | 'units', language: string): string | undefined {
  if (language !== 'nl' && language !== 'de') return undefined;
  const base = capabilityId.split('.')[0] ?? capabilityId;
  const entry = Object.hasOwn(systemCapabilities, base) ? systemCapabilities[base] : undefined;
  return field === 'title' ? entry?.titles[language] : entry?.unitsIn?.[language];
}
