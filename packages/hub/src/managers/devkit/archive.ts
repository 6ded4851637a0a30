import { invalidParameter } from '@hearth/contract';
import { Parser } from 'tar';

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
