import type { INSIGHTS_RESOLUTIONS } from '@hearth/contract';

/** The hub's resolutions (only their names come from the contract: its schemas stay out of the bundle). */
export type Resolution = (typeof INSIGHTS_RESOLUTIONS)[number];

export interface Log {
  id: string;
  ownerUri: string;
  ownerId: string;
  title: string;
  type: 'number' | 'boolean';
  units: string | null;
  decimals: number | null;
  lastValue: number | boolean | null;
  ownerName?: string;
}

export interface Entries {
  resolution: string;
  step: number;
  values: { t: string; v: number | boolean | null }[];
}
