import { mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalidParameter } from '@hearth/contract';

/** The largest `app.json` the hub reads from an archive. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** `app.json` at the archive's root or inside its one top folder (`my-app/app.json`), as `homey app` packs it. */
const isManifestPath = (path: string): boolean => /^(\.\/)?([^/]+\/)?app\.json$/.test(path);

/**
 * The parsed `app.json` of an app archive (tar.gz). Throws a 400 naming the `app` field when the archive is
 * not a tar.gz, has no `app.json`, or its `app.json` is not a JSON object; the manifest's content is checked by
 * the caller, as for the manifest form.
 */
export async function manifestFromArchive(archive: Buffer): Promise<unknown> {
  if (archive.length < 2 || archive[0] !== 0x1f || archive[1] !== 0x8b) {
    throw invalidParameter('app', 'The app archive must be a tar.gz file');
  }
  // tar is loaded when a developer installs an app, not kept in an idle hub.
  const { Parser } = await import('tar');
  const raw = await new Promise<Buffer | null>((resolve, reject) => {
    let found: Buffer | null = null;
    const fail = (message: string) => reject(invalidParameter('app', `The app archive is not a valid tar.gz: ${message}`));
    const parser = new Parser({ strict: true, onwarn: (_code, message) => fail(String(message)) });
    parser.on('entry', (entry) => {
      if (found || entry.type !== 'File' || !isManifestPath(entry.path) || (entry.size ?? 0) > MAX_MANIFEST_BYTES) {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        found ??= Buffer.concat(chunks);
      });
    });
    parser.on('error', (error: Error) => fail(error.message));
    parser.on('end', () => resolve(found));
    parser.end(archive);
  });
  if (!raw) throw invalidParameter('app', 'The app archive has no app.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidParameter('app', 'app.json is not valid JSON');
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw invalidParameter('app', 'app.json must be a JSON object');
  }
  return manifest;
}

/** The most an app archive may unpack to (a small archive that unpacks to gigabytes is refused). */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

/**
 * Unpacks an app archive into `dir` (created; it must not exist yet): regular files and folders only, never
 * outside `dir` (absolute and `..` paths are refused by tar; links are skipped, since an app's file access is
 * confined by path and a link would lead out), with the one top folder `homey app` packs into stripped.
 * Answers whether the archive carried code (an `app.js`).
 */
export async function extractApp(archive: Buffer, dir: string): Promise<boolean> {
  const { extract, list } = await import('tar');
  const paths: string[] = [];
  await pipeline(Readable.from([archive]), list({ onReadEntry: (entry) => paths.push(entry.path) }));
  const nested = !paths.some((p) => /^(\.\/)?app\.json$/.test(p));
  const strip = nested ? 1 : 0;
  let unpacked = 0;
  let code = false;
  mkdirSync(dir, { recursive: true });
  await pipeline(
    Readable.from([archive]),
    extract({
      cwd: dir,
      strip,
      strict: true,
      filter: (path, entry) => {
        const type = 'type' in entry ? entry.type : 'File';
        if (type !== 'File' && type !== 'Directory') return false;
        unpacked += entry.size ?? 0;
        if (unpacked > MAX_UNPACKED_BYTES) throw invalidParameter('app', 'The app archive unpacks to more than 256 MB');
        const relative = path.replace(/^\.\//, '').split('/').slice(strip).join('/');
        if (relative === 'app.js') code = true;
        return true;
      },
    }),
  );
  return code;
}
