import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import semver from 'semver';
import { Parser } from 'tar';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { LOCAL_FEATURES } from './compatibility';

const PlatformRange = Type.String({ minLength: 1, maxLength: 100 });

/** A text given once or per language. */
const Translated = Type.Union([
  Type.String({ minLength: 1, maxLength: 500 }),
  Type.Record(Type.String({ pattern: '^[a-z]{2}$' }), Type.String({ maxLength: 500 }), { minProperties: 1 }),
]);

const Driver = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]*$', maxLength: 100 }),
    name: Translated,
    class: Type.String({ minLength: 1 }),
    capabilities: Type.Array(Type.String({ minLength: 1 })),
    connectivity: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 20 }))),
    zigbee: Type.Optional(Type.Object({ manufacturerName: Type.Unknown(), productId: Type.Unknown() })),
    zwave: Type.Optional(
      Type.Object({ manufacturerId: Type.Unknown(), productTypeId: Type.Unknown(), productId: Type.Unknown() }),
    ),
    matter: Type.Optional(Type.Object({ vendorId: Type.Unknown(), productId: Type.Unknown() })),
  },
  { additionalProperties: true },
);

/** What the catalogue requires of an app package's `app.json` (the hub checks the rest when it installs). */
export const PackageManifest = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_-]+)+$', maxLength: 200 }),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$' }),
    sdk: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
    name: Translated,
    description: Type.Optional(Translated),
    category: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    author: Type.Object({ name: Type.String({ minLength: 1 }), email: Type.String({ minLength: 3 }) }),
    brandColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
    compatibility: Type.Optional(Type.String({ maxLength: 100 })),
    platforms: Type.Optional(Type.Array(Type.Union([Type.Literal('local'), Type.Literal('cloud')]), { minItems: 1 })),
    platformLocalRequiredFeatures: Type.Optional(Type.Array(Type.Union(LOCAL_FEATURES.map((f) => Type.Literal(f))))),
    /** Per platform, a semver range of the platform versions (hub generations) the app runs on: `{ "local": ">=2" }`. */
    platformCompatibility: Type.Optional(
      Type.Object({ local: Type.Optional(PlatformRange), cloud: Type.Optional(PlatformRange) }, { additionalProperties: false }),
    ),
    permissions: Type.Optional(Type.Array(Type.String())),
    support: Type.Optional(Type.String({ pattern: '^(https?://|mailto:)', maxLength: 500 })),
    bugs: Type.Optional(Type.Object({ url: Type.String({ pattern: '^https?://', maxLength: 500 }) })),
    homeyCommunityTopicId: Type.Optional(Type.Integer({ minimum: 1 })),
    tags: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    drivers: Type.Optional(Type.Array(Driver)),
    discovery: Type.Optional(Type.Record(Type.String(), Type.Object({ type: Type.String() }, { additionalProperties: true }))),
    flow: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    settings: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true },
);
export type PackageManifest = Static<typeof PackageManifest>;

export type Translation = string | Record<string, string>;

/** The manifest facts the catalogue, the hub and the support form read. */
export interface AppFactsValue {
  [key: string]: unknown;
  name: Translation;
  description?: Translation;
  sdk: number;
  brandColor?: string;
  icon?: string;
  support?: string;
  bugs?: string;
  homeyCommunityTopicId?: number;
  category: string[];
  tags: string[];
  platforms: string[];
  compatibility?: string;
  /** Per platform, the platform versions the app runs on (`platformCompatibility`, semver ranges). */
  platformCompatibility?: Record<string, string>;
  /** Hardware a local hub must have to run the app (`platformLocalRequiredFeatures`). */
  platformLocalRequiredFeatures?: string[];
  permissions: string[];
  features: string[];
  drivers: FactsDriver[];
  discovery: Record<string, Record<string, unknown>>;
}

export interface FactsDriver {
  [key: string]: unknown;
  id: string;
  name: Translation;
  class: string;
  connectivity: string[];
  zigbee?: { manufacturerName: unknown; productId: unknown };
  zwave?: { manufacturerId: unknown; productTypeId: unknown; productId: unknown };
  matter?: { vendorId: unknown; productId: unknown };
}

/** Checks an app.json; answers the problems (empty when valid). */
export function checkPackageManifest(manifest: unknown): string[] {
  if (!Value.Check(PackageManifest, manifest)) {
    return [...Value.Errors(PackageManifest, manifest)].slice(0, 5).map((e) => `app.json${e.instancePath || ''}: ${e.message}`);
  }
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const driver of manifest.drivers ?? []) {
    if (seen.has(driver.id)) problems.push(`app.json/drivers: driver id ${driver.id} is declared twice`);
    seen.add(driver.id);
  }
  for (const [platform, range] of Object.entries(manifest.platformCompatibility ?? {}))
    if (typeof range === 'string' && semver.validRange(range) === null)
      problems.push(`app.json/platformCompatibility/${platform}: ${range} is not a semver range`);
  return problems;
}

const asList = (value: unknown): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');

/** The facts of a valid manifest. */
export function factsOf(manifest: PackageManifest): AppFactsValue {
  const flow = manifest.flow ?? {};
  const features = [
    ...((manifest.drivers ?? []).length > 0 ? ['drivers'] : []),
    ...(Object.values(flow).some((cards) => Array.isArray(cards) && cards.length > 0) ? ['flow'] : []),
    ...((manifest.settings ?? []).length > 0 ? ['settings'] : []),
  ];
  return {
    name: manifest.name,
    ...(manifest.description !== undefined ? { description: manifest.description } : {}),
    sdk: manifest.sdk,
    ...(manifest.brandColor ? { brandColor: manifest.brandColor } : {}),
    ...(manifest.support ? { support: manifest.support } : {}),
    ...(manifest.bugs ? { bugs: manifest.bugs.url } : {}),
    ...(manifest.homeyCommunityTopicId ? { homeyCommunityTopicId: manifest.homeyCommunityTopicId } : {}),
    category: asList(manifest.category),
    tags: [...new Set(Object.values(manifest.tags ?? {}).flat())],
    platforms: manifest.platforms ?? ['local'],
    ...(manifest.compatibility ? { compatibility: manifest.compatibility } : {}),
    ...(manifest.platformCompatibility && Object.keys(manifest.platformCompatibility).length > 0
      ? { platformCompatibility: manifest.platformCompatibility as Record<string, string> }
      : {}),
    ...(manifest.platformLocalRequiredFeatures?.length
      ? { platformLocalRequiredFeatures: [...new Set(manifest.platformLocalRequiredFeatures)] }
      : {}),
    permissions: manifest.permissions ?? [],
    features,
    drivers: (manifest.drivers ?? []).map((d) => ({
      id: d.id,
      name: d.name,
      class: d.class,
      connectivity: d.connectivity ?? [],
      ...(d.zigbee ? { zigbee: d.zigbee } : {}),
      ...(d.zwave ? { zwave: d.zwave } : {}),
      ...(d.matter ? { matter: d.matter } : {}),
    })),
    discovery: (manifest.discovery ?? {}) as Record<string, Record<string, unknown>>,
  };
}

export type ArchiveFormat = 'tar.gz' | 'zip';

export interface ReadArchive {
  format: ArchiveFormat;
  hash: string;
  size: number;
  manifest: PackageManifest;
  icon: Buffer | null;
}

/** An archive that cannot be used; the message says why (it is shown to the developer). */
export class ArchiveError extends Error {}

const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_ICON_BYTES = 512 * 1024;

/** `app.json` at the root or inside one top folder (`package/app.json`). */
const placeOf = (path: string): 'manifest' | 'icon' | null => {
  const clean = path.replace(/^\.\//, '');
  if (/^([^/]+\/)?app\.json$/.test(clean)) return 'manifest';
  if (/^([^/]+\/)?assets\/icon\.svg$/.test(clean)) return 'icon';
  return null;
};

async function readTar(buffer: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      strict: true,
      onwarn: (_code, message) => reject(new ArchiveError(`The archive is not a valid tar.gz: ${String(message)}`)),
    });
    parser.on('entry', (entry) => {
      const place = entry.type === 'File' ? placeOf(entry.path) : null;
      const limit = place === 'manifest' ? MAX_MANIFEST_BYTES : MAX_ICON_BYTES;
      if (!place || entry.size > limit || files.has(place)) {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => files.set(place, Buffer.concat(chunks)));
    });
    parser.on('error', (error: Error) => reject(new ArchiveError(`The archive is not a valid tar.gz: ${error.message}`)));
    parser.on('end', () => resolve());
    parser.end(buffer);
  });
  return files;
}

function readZip(buffer: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(buffer, {
      filter: (file) => {
        const place = placeOf(file.name);
        return place !== null && file.originalSize <= (place === 'manifest' ? MAX_MANIFEST_BYTES : MAX_ICON_BYTES);
      },
    });
  } catch (error) {
    throw new ArchiveError(`The archive is not a valid zip: ${(error as Error).message}`);
  }
  for (const [name, data] of Object.entries(entries)) {
    const place = placeOf(name);
    if (place && !files.has(place)) files.set(place, Buffer.from(data));
  }
  return files;
}

/** Detects the format by its first bytes: gzip (`1f 8b`) or zip (`PK\x03\x04`). */
export function archiveFormat(buffer: Buffer): ArchiveFormat | null {
  if (buffer.length >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'tar.gz';
  if (buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50) return 'zip';
  return null;
}

/** Reads an uploaded app package: hash, size, its validated app.json and its icon. Throws {@link ArchiveError}. */
export async function readArchive(buffer: Buffer): Promise<ReadArchive> {
  const format = archiveFormat(buffer);
  if (!format) throw new ArchiveError('The archive must be a tar.gz or a zip file');
  const files = format === 'zip' ? readZip(buffer) : await readTar(buffer);
  const raw = files.get('manifest');
  if (!raw) throw new ArchiveError('The archive has no app.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ArchiveError('app.json is not valid JSON');
  }
  const problems = checkPackageManifest(manifest);
  if (problems.length > 0) throw new ArchiveError(`Invalid app.json: ${problems.join('; ')}`);
  return {
    format,
    hash: createHash('sha256').update(buffer).digest('hex'),
    size: buffer.length,
    manifest: manifest as PackageManifest,
    icon: files.get('icon') ?? null,
  };
}
