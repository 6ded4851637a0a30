import type { INSIGHTS_RESOLUTIONS } from '@hearth/contract';

/** The hub's resolutions (only their names come from the contract: its schemas stay out of the bundle). */
export type Resolution = (typeof INSIGHTS_RESOLUTIONS)[number];

/** Every resolution the hub serves, in order, as a person names it. */
export const RESOLUTION_LABELS: Record<Resolution, string> = {
  lastHour: 'Last hour',
  last6Hours: 'Last 6 hours',
  last24Hours: 'Last 24 hours',
  last7Days: 'Last 7 days',
  last14Days: 'Last 14 days',
  last31Days: 'Last 31 days',
  lastYear: 'Last year',
  last2Years: 'Last 2 years',
};

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
