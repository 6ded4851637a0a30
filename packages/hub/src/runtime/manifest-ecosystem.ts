import { existsSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

/**
 * The checks the ecosystem's app validator makes at the level its CLI uses for `homey app run` and `homey app
 * install` ("debug") beyond the shape of the manifest, for apps that come from outside (the developer kit, the app
 * store). Hearth's own built-in apps keep Hearth's connectivities (`virtual`, `433`, …) and are not held to them.
 *
 * Written from the documented facts of the ecosystem's manifest (automation-and-apps.md, "Manifest"; the published
 * schema's required fields and enums), not from its library: `homey-lib`'s licence file is the GPL-3.0 text, so
 * the hub does not load it for this. `ecosystem-validator.test.ts` holds these checks against the ecosystem's own
 * validator (a development dependency there) on a suite of manifests, so the two cannot drift apart unnoticed.
 */

/** Connectivities the ecosystem's manifest allows for a driver. */
const ECOSYSTEM_CONNECTIVITY = new Set(['lan', 'cloud', 'ble', 'zwave', 'zigbee', 'infrared', 'rf433', 'rf868', 'matter']);

interface ManifestView {
  id?: unknown;
  version?: unknown;
  compatibility?: unknown;
  sdk?: unknown;
  runtime?: unknown;
  drivers?: { id?: unknown; connectivity?: unknown }[];
  flow?: Record<string, { id?: unknown; titleFormatted?: unknown; args?: unknown; droptoken?: unknown }[] | undefined>;
}

/** Problems the ecosystem's validator finds in `manifest` (and, given the app's folder, in its files). */
export function ecosystemProblems(manifest: unknown, dir?: string): string[] {
  const app = manifest as ManifestView;
  const problems: string[] = [];
  // An id of at least two dot-separated parts, of letters (either case), digits, `_`, `.` and `-`.
  if (typeof app.id === 'string' && !(/^[A-Za-z0-9_.-]+$/.test(app.id) && app.id.split('.').length >= 2))
    problems.push('/id is not an app id (at least two parts separated by dots)');
  // A release version: major.minor.patch, no pre-release, no leading zeros.
  if (typeof app.version === 'string' && !/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.test(app.version))
    problems.push(`/version ${app.version} is not a release version (major.minor.patch, no pre-release)`);
  const lowest = compatibilityFloor(app.compatibility, problems);
  if (lowest && (app.sdk ?? 3) === 3 && !semver.gte(lowest, '5.0.0'))
    problems.push(`/compatibility ${String(app.compatibility)}: apps of SDK 3 need at least >=5.0.0`);
  if (app.runtime === 'python') {
    if (lowest && !semver.gte(lowest, '13.0.0'))
      problems.push(`/compatibility ${String(app.compatibility)}: Python apps need at least >=13.0.0`);
    if ((app.sdk ?? 3) !== 3) problems.push('/sdk Python apps use SDK 3');
  }
  for (const driver of app.drivers ?? []) {
    const given = Array.isArray(driver.connectivity) ? driver.connectivity : [];
    for (const connectivity of given)
      if (!ECOSYSTEM_CONNECTIVITY.has(connectivity))
        problems.push(
          `/drivers/${String(driver.id)}/connectivity ${String(connectivity)} is not one of ${[...ECOSYSTEM_CONNECTIVITY].join(', ')}`,
        );
  }
  problems.push(...formattedTitleProblems(app.flow));
  if (dir !== undefined && !existsSync(join(dir, 'assets', 'icon.svg'))) problems.push('assets/icon.svg: the app has no icon');
  return problems;
}

/** The lowest platform version `compatibility` allows, or `null` (with the problem noted) when it is no range. */
function compatibilityFloor(compatibility: unknown, problems: string[]): string | null {
  if (compatibility === undefined) {
    problems.push('/compatibility is required (the range of platform versions the app runs on, e.g. ">=12.0.0")');
    return null;
  }
  const range = typeof compatibility === 'string' ? semver.validRange(compatibility) : null;
  const lowest = range ? semver.minVersion(range) : null;
  if (!lowest) problems.push(`/compatibility ${String(compatibility)} is not a range of versions`);
  return lowest?.version ?? null;
}

/**
 * A card's `titleFormatted` names each of its arguments once, as `[[name]]`, and nothing else; the device of a
 * device card (its first `device` argument filtered by driver) is shown by the card itself and is not named. A
 * card whose only argument is that device is not checked, nor a card without `titleFormatted`.
 */
function formattedTitleProblems(flow: ManifestView['flow']): string[] {
  const problems: string[] = [];
  for (const [kind, cards] of Object.entries(flow ?? {})) {
    for (const card of Array.isArray(cards) ? cards : []) {
      const args = (Array.isArray(card.args) ? card.args : []) as { name?: string; type?: string; filter?: unknown }[];
      const device = args.find((arg) => {
        if (arg.type !== 'device') return false;
        const filter = new URLSearchParams((arg.filter ?? '') as string | Record<string, string>);
        return filter.has('driver_id') || filter.has('driverId');
      });
      const named = args.filter((arg) => arg !== device).map((arg) => String(arg.name));
      if (named.length === 0 || card.titleFormatted === undefined) continue;
      if (card.droptoken) named.push('droptoken');
      const titles =
        typeof card.titleFormatted === 'string'
          ? [card.titleFormatted]
          : Object.values((card.titleFormatted ?? {}) as Record<string, unknown>).map(String);
      const at = `/flow/${kind}/${String(card.id)}/titleFormatted`;
      for (const title of titles) {
        const used = [...title.matchAll(/\[\[(.*?)\]\]/g)].map((match) => match[1] as string);
        if (used.length === 0) problems.push(`${at} names none of the card's arguments`);
        for (const [index, name] of used.entries()) {
          if (!named.includes(name)) problems.push(`${at} names [[${name}]], which is not an argument of the card`);
          else if (used.indexOf(name) !== index) problems.push(`${at} names [[${name}]] twice`);
        }
      }
    }
  }
  return problems;
}
