import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from '@hearth/contract/testing';
import { describe, expect, it } from 'vitest';

/**
 * What the browser code (this client and the three front ends) may take from `@hearth/contract` at run time. The
 * client's browser builds inline the operation table as plain data (scripts/browser-overrides.mjs), so TypeBox and
 * the contract's hundreds of schemas stay out of every page; one value import of the contract's root (or of its
 * server-side parts) undoes that and adds them all to a phone's download. Types may be imported from anywhere.
 */
const BROWSER_SAFE = new Set([
  '@hearth/contract/provider',
  '@hearth/contract/device-settings',
  '@hearth/contract/scopes',
  '@hearth/contract/client',
]);

const packages = fileURLToPath(new URL('../..', import.meta.url));
const browserSources = ['client/src/hub', 'client/src/cloud', 'i18n/src', 'home/src', 'account/src', 'support-form/src'];

/** The contract modules `source` imports values from (`import type` and all-`type` specifier lists excluded). */
function contractValueImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\b(import|export)\s+(type\s+)?([^;]*?)\s+from\s+'(@hearth\/contract[\w/-]*)'/gs)) {
    const [, , typeOnly, clause = '', module = ''] = match;
    if (typeOnly) continue;
    const specifiers = clause
      .match(/^\{([^}]*)\}$/s)?.[1]
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (specifiers?.every((specifier) => specifier.startsWith('type '))) continue;
    found.push(module);
  }
  return found;
}

describe('browser code and the contract', () => {
  it('reads a value import as one and a type import as none', () => {
    expect(contractValueImports("import { fullPath, type X } from '@hearth/contract';")).toEqual(['@hearth/contract']);
    expect(
      contractValueImports("import type { X } from '@hearth/contract';\nimport { type Y } from '@hearth/contract';"),
    ).toEqual([]);
    expect(contractValueImports("export {\n  ACCOUNT_PAGES,\n} from '@hearth/contract/provider';")).toEqual([
      '@hearth/contract/provider',
    ]);
  });

  it('takes values only from the contract modules that carry no schemas', () => {
    const offending = browserSources.flatMap((folder) =>
      sourceFiles(join(packages, folder)).flatMap((file) =>
        contractValueImports(readFileSync(file, 'utf8'))
          .filter((module) => !BROWSER_SAFE.has(module))
          .map((module) => `${relative(packages, file)} imports values from ${module}`),
      ),
    );
    expect(offending).toEqual([]);
  });

  it('takes i18next only through @hearth/i18n, so every front end detects, switches and keeps languages one way', () => {
    const frontEnds = ['home/src', 'account/src', 'support-form/src'];
    const offending = frontEnds.flatMap((folder) =>
      sourceFiles(join(packages, folder))
        .filter((file) => /from\s+'(i18next|react-i18next)(\/[\w/-]*)?'/.test(readFileSync(file, 'utf8')))
        .map((file) => relative(packages, file)),
    );
    expect(offending).toEqual([]);
  });
});
