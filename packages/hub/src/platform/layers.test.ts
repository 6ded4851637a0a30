import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from '@hearth/contract/testing';
import { describe, expect, it } from 'vitest';

/**
 * The hub's lower layers never reach up: `core/` (clock, bus, schedulers, device control's interfaces) and
 * `store/` (the database, which the durable scheduler keeps its jobs in) know nothing above them, and `platform/` (context, identity, auth, roles, events) knows
 * nothing of the managers that adapt the contract to it. A manager may use all three; an arrow the other way would
 * tie the platform to one manager's folder and close an import circle.
 */
const BASE = ['core', 'store', 'config.ts'];
const NEVER_FROM_PLATFORM = ['managers', 'server.ts', 'main.ts', 'demo', 'home-app', 'virtual-devices'];

const source = dirname(fileURLToPath(new URL('.', import.meta.url)));

/** Each relative import of `file` as the top folder (or file) of `src/` it lands in. */
function importedTopLevels(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map(([, specifier = '']) => {
    const target = relative(source, resolve(dirname(file), specifier));
    const [top = '', ...below] = target.split(/[\\/]/);
    // `../config` names the file src/config.ts; `../core/clock` the folder core.
    return below.length === 0 ? `${top.replace(/\.ts$/, '')}.ts` : top;
  });
}

describe('the hub’s layers', () => {
  it('keep core/ and store/ to themselves', () => {
    const upward = ['core', 'store'].flatMap((layer) =>
      sourceFiles(join(source, layer)).flatMap((file) =>
        importedTopLevels(file)
          .filter((top) => !BASE.includes(top))
          .map((top) => `${relative(source, file)} imports from ${top}`),
      ),
    );
    expect(upward).toEqual([]);
  });

  it('keep platform/ below the managers', () => {
    const upward = sourceFiles(join(source, 'platform')).flatMap((file) =>
      importedTopLevels(file)
        .filter((top) => NEVER_FROM_PLATFORM.includes(top))
        .map((top) => `${relative(source, file)} imports from ${top}`),
    );
    expect(upward).toEqual([]);
  });
});
