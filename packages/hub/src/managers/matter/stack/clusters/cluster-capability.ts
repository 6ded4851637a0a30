import type { Behavior, Endpoint } from '@matter/main';

/** A cluster's attributes as the controller holds them for one endpoint (from the hub's subscription). */
export type ClusterState = Readonly<Record<string, unknown>>;

/**
 * One capability carried by a cluster: which of the cluster's attributes make its value, how a reported state
 * becomes the capability's value and, for a writable capability, the command (or attribute write) that sets it,
 * resolved when the node acknowledged it.
 */
export interface ClusterCapability {
  capability: string;
  /** The client behavior of the cluster (its id is the behavior id on a peer's endpoint). */
  client: Behavior.Type;
  /** The attributes the value is made of: a report touching one of them changes the capability. */
  attributes: readonly string[];
  /** The capability's value from the cluster's state (null: the node does not know it). */
  toCapability(state: ClusterState): unknown;
  /** Whether the cluster as this endpoint implements it carries the capability (its features); default: always. */
  carriedBy?(state: ClusterState): boolean;
  write?: (endpoint: Endpoint, value: unknown, state: ClusterState) => Promise<void>;
}

/** The cluster's feature flags (`featureMap`) as matter.js decodes them. */
export const featuresOf = (state: ClusterState): Readonly<Record<string, boolean>> =>
  (state.featureMap ?? {}) as Record<string, boolean>;

/** A number a node reported, or null when it reported none (null, or not a number). */
export const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** Rounds to the capability's decimals, so that a reported value compares equal to the same value stored. */
export const rounded = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The options every Level and Color Control command carries (Matter 1.3): none set, act as the cluster says. */
export const NO_OPTIONS = { optionsMask: {}, optionsOverride: {} } as const;

/**
 * Color Control's options for a command that must take effect on a light that is off: without ExecuteIfOff a
 * node ignores colour commands while off (and still acknowledges them), so the colour set would be lost; with it
 * the light keeps the colour and shows it when next turned on, as the ecosystem's lights do.
 */
export const EXECUTE_IF_OFF = { optionsMask: { executeIfOff: true }, optionsOverride: { executeIfOff: true } } as const;
