import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The TypeScript source files under `dir` (`.ts` and `.tsx`; not tests, not declarations): what the source rules
 * read (the cloud's clock and silent-catch rules, the hub's layers, the browser code's contract imports).
 */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
