import type { Translation } from './archive';

/** Words shorter than this match only exactly or as a prefix: one typo in two letters is another word. */
const MIN_TYPO_LENGTH = 4;
const MAX_WORD_LENGTH = 40;
/** A typo in a word still being typed is only looked for from this length on. */
const TYPO_PREFIX_LENGTH = 6;

/** Lower-cased words without diacritics: `"Lumen & Co Verlichting"` → `["lumen", "co", "verlichting"]`. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, MAX_WORD_LENGTH));
}

/** The keys a query word is looked up under: itself and, from four letters on, each of its one-letter deletions. */
export function keysOf(word: string): { key: string; distance: number }[] {
  const keys = new Map<string, number>([[word, 0]]);
  if (word.length >= MIN_TYPO_LENGTH)
    for (let i = 0; i < word.length; i++) {
      const key = word.slice(0, i) + word.slice(i + 1);
      if (!keys.has(key)) keys.set(key, 1);
    }
  return [...keys].map(([key, distance]) => ({ key, distance }));
}

/** The keys an indexed word is stored under: its query keys plus its prefixes from two letters (distance 2). */
export function indexKeysOf(word: string): { key: string; distance: number }[] {
  const keys = new Map(keysOf(word).map(({ key, distance }) => [key, distance]));
  for (let length = 2; length < word.length; length++) {
    const prefix = word.slice(0, length);
    if (!keys.has(prefix)) keys.set(prefix, 2);
  }
  return [...keys].map(([key, distance]) => ({ key, distance }));
}

/** Every word of an app's names in all languages and of its id (`com.lumenco.lights` → `lumenco`, `lights`). */
export function indexWords(appId: string, name: Translation): string[] {
  const names = typeof name === 'string' ? [name] : Object.values(name);
  const idWords = appId.split('.').slice(1);
  return [...new Set([...names.flatMap(wordsOf), ...idWords.flatMap(wordsOf)])];
}

/** The rows of the search index for one app. */
export function searchRows(appId: string, name: Translation) {
  return indexWords(appId, name).flatMap((word) =>
    indexKeysOf(word).map(({ key, distance }) => ({ app_id: appId, key, word, distance })),
  );
}

/**
 * How well an indexed word matches a query word: 3 exact, 2 prefix, 1 one typo in the word (from four letters on)
 * or in a prefix of it (from six letters on), 0 not at all.
 */
export function matchScore(queryWord: string, word: string): number {
  if (word === queryWord) return 3;
  if (queryWord.length >= 2 && word.startsWith(queryWord)) return 2;
  if (queryWord.length < MIN_TYPO_LENGTH) return 0;
  if (withinOneEdit(queryWord, word)) return 1;
  if (queryWord.length < TYPO_PREFIX_LENGTH) return 0;
  for (let length = queryWord.length - 1; length <= queryWord.length + 1; length++)
    if (length < word.length && withinOneEdit(queryWord, word.slice(0, length))) return 1;
  return 0;
}

/** Whether `a` becomes `b` by at most one insertion, deletion, substitution or swap of neighbours. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
