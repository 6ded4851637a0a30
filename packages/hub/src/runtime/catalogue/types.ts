import type { CapabilityType, ChartType } from '../capabilities';

/** One argument of a device card: its name, its kind, and for ranges its bounds and how a client labels them. */
export interface CatalogueArg {
  readonly name: string;
  readonly type: 'range' | 'dropdown' | 'color' | 'time';
  readonly title?: string;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  /** The value a client's form starts with. */
  readonly value?: number;
  readonly label?: string;
  readonly labelMultiplier?: number;
  readonly labelDecimals?: number;
  readonly example?: number;
  readonly placeholder?: string;
}

/**
 * A condition or action card a capability brings to every device that has it. A `dropdown` argument offers the
 * capability's own values. `classes`: offered only to devices of these classes.
 */
export interface CatalogueCard {
  readonly id: string;
  /** `!{{…|…}}` holds the plain and the inverted wording of a condition; `[[arg]]` places an argument. */
  readonly title: string;
  readonly args?: readonly CatalogueArg[];
  readonly classes?: readonly string[];
}

/** The components the ecosystem's clients draw a capability with (the household web app maps them to its own). */
export type EcosystemUiComponent =
  | 'toggle'
  | 'slider'
  | 'sensor'
  | 'thermostat'
  | 'button'
  | 'picker'
  | 'media'
  | 'color'
  | 'battery'
  | 'ternary';

/** One system capability: its facts as the ecosystem defines them, in Hearth's own words. */
export interface CatalogueEntry {
  readonly type: CapabilityType;
  readonly title: string;
  /** The title in the hub's other languages. */
  readonly titles: { readonly nl: string; readonly de: string };
  readonly desc?: string;
  readonly units?: string;
  /** Where a language writes the units otherwise (`km/u` in Dutch). */
  readonly unitsIn?: { readonly nl?: string; readonly de?: string };
  readonly getable: boolean;
  readonly setable: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly decimals?: number;
  readonly chartType?: ChartType;
  readonly uiComponent?: EcosystemUiComponent;
  /** Whether the hub keeps a history (insights log) of the capability's values. */
  readonly insights?: true;
  readonly values?: readonly { readonly id: string; readonly title: string }[];
  readonly conditions?: readonly CatalogueCard[];
  readonly actions?: readonly CatalogueCard[];
}

export type CatalogueFamily = Readonly<Record<string, CatalogueEntry>>;
