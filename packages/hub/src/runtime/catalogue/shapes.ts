import type { CatalogueEntry } from './types';

/** The facts most capabilities of a kind share; an entry spreads its kind's and adds its own. */

/** On while something is detected or wrong; read only, with a history. */
export const alarm = {
  type: 'boolean',
  getable: true,
  setable: false,
  uiComponent: 'sensor',
  insights: true,
} as const satisfies Partial<CatalogueEntry>;

/** A measured number; read only, with a smooth history. */
export const reading = {
  type: 'number',
  getable: true,
  setable: false,
  chartType: 'spline',
  uiComponent: 'sensor',
  insights: true,
} as const satisfies Partial<CatalogueEntry>;

/** One of a set of values that a person or flow may choose. */
export const choice = {
  type: 'enum',
  getable: true,
  setable: true,
  uiComponent: 'picker',
} as const satisfies Partial<CatalogueEntry>;

/** One of a set of values the device reports; read only. */
export const state = {
  type: 'enum',
  getable: true,
  setable: false,
  uiComponent: 'sensor',
} as const satisfies Partial<CatalogueEntry>;

/** A button: pressed, never read. */
export const press = {
  type: 'boolean',
  getable: false,
  setable: true,
  uiComponent: 'button',
} as const satisfies Partial<CatalogueEntry>;

/** The four levels of the air quality capabilities (`level_co`, `level_pm25`, …). */
export const fourLevels = [
  { id: 'low', title: 'Low' },
  { id: 'medium', title: 'Medium' },
  { id: 'high', title: 'High' },
  { id: 'critical', title: 'Critical' },
] as const;
