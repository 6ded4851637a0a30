import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from '@hearth/contract/testing';
import { describe, expect, it } from 'vitest';

/**
 * The cloud reads the time from its context's clock (`context.clock.now()`), so a test can move it (issue 35).
 * This fails on cloud source that reads the wall clock itself: `Date.now` (called or handed over as a function) or
 * `new Date()` with no argument. A date made from a value (`new Date(row.expires_at)`) is fine. The clock itself
 * (`systemClock`) lives in `@hearth/contract/clock`, outside this folder.
 */
const srcDir = dirname(fileURLToPath(import.meta.url));
const WALL_CLOCK = /\bDate\.now\b|\bnew Date\(\s*\)/;
/** A line that is only a comment (TSDoc, `//`): words there may name `Date.now` to say why it is not used. */
const COMMENT = /^\s*(\/\/|\*|\/\*)/;

/** The lines of `text` that read the wall clock, as `line: text`. */
export function wallClockReads(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) => (WALL_CLOCK.test(line) && !COMMENT.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}

describe('time in the cloud comes from the context’s clock', () => {
  it('finds the wall clock where it is read, and not where a date is made from a value', () => {
    const sample = [
      'const a = Date.now();',
      'const b = new Date();',
      'const c = new Date( );',
      'constructor(private readonly now = Date.now) {}',
      'const d = new Date(context.clock.now());',
      'const e = new Date(row.expires_at);',
      'const f = Date.parse(value);',
      ' * (never `Date.now()`: tests move the clock)',
    ].join('\n');
    expect(wallClockReads(sample)).toEqual([
      '1: const a = Date.now();',
      '2: const b = new Date();',
      '3: const c = new Date( );',
      '4: constructor(private readonly now = Date.now) {}',
    ]);
  });

  it('no cloud source outside tests reads the wall clock', () => {
    const files = sourceFiles(srcDir);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      wallClockReads(readFileSync(file, 'utf8')).map((line) => `${relative(srcDir, file)}:${line}`),
    );
    expect(found).toEqual([]);
  });
});
