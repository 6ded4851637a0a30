import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from '@hearth/contract/testing';
import { describe, expect, it } from 'vitest';

/**
 * Nothing in the hub or the cloud fails silently (issue 35, item 4): a failure caught and dropped — an empty
 * `catch {}`, or `.catch(() => {})` / `() => undefined` / `null` / `false` — either is logged with what was being
 * done, or carries a comment (on its line or the line above) saying why dropping it is right. This fails on one
 * that does neither. Tests are not read: there, a dropped failure fails an assertion instead.
 */
const packagesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROOTS = ['hub/src', 'cloud/src'];
const DROPPED =
  /\.catch\(\s*(?:\(\s*\w*\s*\)|\w+)\s*=>\s*(?:\{\s*\}|undefined|null|void 0|false)\s*\)|\bcatch\s*(?:\(\s*\w*\s*\))?\s*\{\s*\}/g;
const COMMENT_LINE = /^\s*(\/\/|\*|\/\*)/;

/** The dropped failures of `text` that no comment explains, as `line: text`. */
export function unexplainedDrops(text: string): string[] {
  const lines = text.split('\n');
  return [...text.matchAll(DROPPED)].flatMap((match) => {
    const at = text.slice(0, match.index).split('\n').length - 1;
    const line = lines[at] as string;
    const explained =
      line.slice(line.indexOf(match[0].split('\n')[0] as string)).includes('//') || COMMENT_LINE.test(lines[at - 1] ?? '');
    return explained ? [] : [`${at + 1}: ${line.trim()}`];
  });
}

describe('no failure is dropped without a word', () => {
  it('finds a dropped failure, and lets one pass that is logged or explained', () => {
    const sample = [
      'work().catch(() => {});',
      'work().catch(() => undefined);',
      'const x = await read().catch(() => null);',
      'try { a(); } catch {}',
      'try {',
      '  a();',
      '} catch (error) {',
      '}',
      '// The socket may be closed already: closing it again changes nothing.',
      'socket.close().catch(() => undefined);',
      'socket.end().catch(() => {}); // ended twice is ended',
      'work().catch((error) => log.warn({ err: error }, "working failed"));',
      'try {',
      '  a();',
      '} catch {',
      '  // A body that is not JSON is answered as text.',
      '}',
    ].join('\n');
    expect(unexplainedDrops(sample)).toEqual([
      '1: work().catch(() => {});',
      '2: work().catch(() => undefined);',
      '3: const x = await read().catch(() => null);',
      '4: try { a(); } catch {}',
      '7: } catch (error) {',
    ]);
  });

  it('every failure the hub and the cloud drop is logged or says why not', () => {
    const files = ROOTS.flatMap((root) => sourceFiles(join(packagesDir, root)));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) =>
      unexplainedDrops(readFileSync(file, 'utf8')).map((line) => `${relative(packagesDir, file)}:${line}`),
    );
    expect(found).toEqual([]);
  });
});
