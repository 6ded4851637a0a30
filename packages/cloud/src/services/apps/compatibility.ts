import semver from 'semver';

/**
 * Hub compatibility of a live app: the platform (`local` or `cloud`) a hub runs on, its software version against the
 * manifest's `compatibility` range, the version of its platform (the hub generation: `1`, `2`) against the manifest's
 * `platformCompatibility` range for that platform, its model's hardware against the manifest's
 * `platformLocalRequiredFeatures`, and the SDK level. Version ranges are kept as numeric intervals (an `int8multirange` in the database) so that the
 * database can filter with them; the same intervals answer in JavaScript, so PostgreSQL, PGlite and driver searches
 * agree.
 */

/**
 * Hub filters of the search calls (`homeyVersion`, `homeyPlatform`, `homeyPlatformVersion`, `homeyModel`) and driver
 * searches.
 */
export interface HubFilter {
  homeyPlatform?: string | undefined;
  homeyVersion?: string | undefined;
  homeyPlatformVersion?: string | undefined;
  homeyModel?: string | undefined;
  homeyMinimumSdkVersion?: number | undefined;
}

/** Hardware an app may require of a local hub (`platformLocalRequiredFeatures` in app.json). */
export const LOCAL_FEATURES = [
  'nfc',
  'ledring',
  'speaker',
  'matter',
  'thread',
  'zigbee',
  'zwave',
  'rf433',
  'rf868',
  'ir',
  'ble',
] as const;

interface ModelFacts {
  platform: 'local' | 'cloud';
  /** Hardware of the model; absent when unknown (then hardware requirements are not checked). */
  features?: readonly string[];
}

/** The hub models the provider makes (the simulated hubs' codes) and their hardware. */
export const HUB_MODELS: Record<string, ModelFacts> = {
  'hearth-pro-5q': { platform: 'local', features: ['matter', 'thread', 'zigbee', 'zwave', 'rf433', 'ir', 'ble'] },
  'hearth-pro-mini-6q': { platform: 'local', features: ['matter', 'thread', 'zigbee'] },
  'hearth-cloud': { platform: 'cloud', features: [] },
};

/** What a model code says about a hub: a known model's facts; an unknown code is a local hub of unknown hardware. */
export function modelFacts(model: string): ModelFacts {
  const known = HUB_MODELS[model.toLowerCase()];
  if (known) return known;
  return { platform: model.toLowerCase().includes('cloud') ? 'cloud' : 'local' };
}

/** `[from, until)` of encoded versions; `until` null is unbounded. */
export type VersionInterval = [number, number | null];

const PART = 1_000_000;
/** A release version as one number that sorts like it (`12.4.0` → 12_000_004_000_000). */
export function encodeVersion(version: { major: number; minor: number; patch: number }): number {
  const part = (n: number) => Math.min(n, PART - 1);
  return (Math.min(version.major, 8_000) * PART + part(version.minor)) * PART + part(version.patch);
}

/**
 * The release versions a semver range accepts, as intervals; `null` when the range is not valid (then it is not
 * checked, as before). `">=5.0.0"` → `[[5e12, null]]`; `"^8.1.0 || >=12"` → two intervals.
 */
export function versionIntervals(range: string): VersionInterval[] | null {
  let parsed: semver.Range;
  try {
    parsed = new semver.Range(range);
  } catch {
    return null;
  }
  const intervals: VersionInterval[] = [];
  for (const set of parsed.set) {
    let from = 0;
    let until: number | null = null;
    const below = (n: number) => {
      until = until === null ? n : Math.min(until, n);
    };
    for (const comparator of set) {
      if (comparator.value === '') continue; // `*`: any version
      const version = comparator.semver;
      const at = encodeVersion(version);
      // A release version compares with a pre-release bound as with its release: 1.2.3 > 1.2.3-beta, 1.2.2 < 1.2.3-beta.
      const pre = version.prerelease.length > 0;
      switch (comparator.operator) {
        case '>=':
          from = Math.max(from, at);
          break;
        case '>':
          from = Math.max(from, pre ? at : at + 1);
          break;
        case '<':
          below(at);
          break;
        case '<=':
          below(pre ? at : at + 1);
          break;
        default:
          if (pre) below(0);
          else {
            from = Math.max(from, at);
            below(at + 1);
          }
      }
    }
    if (until === null || from < until) intervals.push([from, until]);
  }
  return intervals;
}

/**
 * Intervals as a PostgreSQL `int8multirange` literal (`{[5000000000000,)}`), which the database tests a version
 * against with `@>`; `null` (no range, or not a valid one) accepts any version.
 */
export function multirangeOf(intervals: VersionInterval[] | null): string | null {
  if (intervals === null) return null;
  return `{${intervals.map(([from, until]) => `[${from},${until ?? ''})`).join(',')}}`;
}

/** The hub version a filter names, encoded; `null` when it is no version. */
export function hubVersion(version: string | undefined): number | null {
  const coerced = version ? semver.coerce(version) : null;
  return coerced ? encodeVersion(coerced) : null;
}

/** Whether intervals (from {@link versionIntervals}) accept an encoded version; `null` intervals accept any. */
export function accepts(intervals: VersionInterval[] | null, version: number): boolean {
  return intervals === null || intervals.some(([from, until]) => from <= version && (until === null || version < until));
}

/** The platforms whose versions an app may restrict (`platformCompatibility` in app.json). */
export const PLATFORMS = ['local', 'cloud'] as const;

/**
 * The platforms a filter's platform version is judged for: the hub's platform (asked directly or through its
 * model), else every platform (an app then suits when any platform it runs on accepts the version).
 */
export function judgedPlatforms(filter: HubFilter): string[] {
  const platform = filter.homeyPlatform ?? (filter.homeyModel ? modelFacts(filter.homeyModel).platform : undefined);
  return platform ? [platform] : [...PLATFORMS];
}

/** The live facts compatibility is judged on. */
export interface CompatibilityFacts {
  platforms?: string[];
  compatibility?: string | undefined;
  platformCompatibility?: Record<string, string> | undefined;
  platformLocalRequiredFeatures?: string[];
  sdk?: number | null;
}

/** Whether an app suits a hub (driver searches; the app search asks the database the same questions). */
export function compatible(facts: CompatibilityFacts, filter: HubFilter): boolean {
  const platforms = facts.platforms ?? ['local'];
  if (filter.homeyPlatform && !platforms.includes(filter.homeyPlatform)) return false;
  const version = hubVersion(filter.homeyVersion);
  if (version !== null && facts.compatibility && !accepts(versionIntervals(facts.compatibility), version)) return false;
  const platformVersion = hubVersion(filter.homeyPlatformVersion);
  if (platformVersion !== null) {
    const ranges = facts.platformCompatibility ?? {};
    const suits = (platform: string) => {
      const range = ranges[platform];
      return platforms.includes(platform) && (!range || accepts(versionIntervals(range), platformVersion));
    };
    if (!judgedPlatforms(filter).some(suits)) return false;
  }
  if (filter.homeyMinimumSdkVersion !== undefined && facts.sdk != null && facts.sdk < filter.homeyMinimumSdkVersion) return false;
  if (filter.homeyModel) {
    const model = modelFacts(filter.homeyModel);
    if (!platforms.includes(model.platform)) return false;
    const needs = facts.platformLocalRequiredFeatures ?? [];
    if (model.platform === 'local' && model.features && !needs.every((f) => model.features?.includes(f))) return false;
  }
  return true;
}
