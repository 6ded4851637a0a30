import type { Translation } from './archive';

/** Words shorter than this match only exactly or as a prefix: one typo in two letters is another word. */
const MIN_TYPO_LENGTH = 4;
const MAX_WORD_LENGTH = 40;

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

/** The word and each of its one-letter deletions. */
export function keysOf(word: string): { key: string; distance: number }[] {
  const keys = new Map<string, number>([[word, 0]]);
  if (word.length >= MIN_TYPO_LENGTH)
    for (let i = 0; i < word.length; i++) {
      const key = word.slice(0, i) + word.slice(i + 1);
      if (!keys.has(key)) keys.set(key, 1);
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
    keysOf(word).map(({ key, distance }) => ({ app_id: appId, key, word, distance })),
  );
}

/** How well an indexed word matches a query word: 3 exact, 2 prefix, 1 one typo, 0 not at all. */
export function matchScore(queryWord: string, word: string, viaKey: boolean): number {
  if (word === queryWord) return 3;
  if (queryWord.length >= 2 && word.startsWith(queryWord)) return 2;
  return viaKey ? 1 : 0;
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
