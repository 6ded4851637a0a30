import type { Translation } from './archive';
import { multirangeOf, versionIntervals } from './compatibility';

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

/**
 * The rows of the first search index layout (one table of keys per app), which the 20261122-70 migration still
 * writes; the catalogue now keeps a word dictionary and postings ({@link postingsOf}, {@link dictionaryOf}).
 */
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

/** Where a word of an app was found. */
export type SearchField = 'name' | 'description' | 'id';

/** One word of one app: in which field and language (`''` for text given once, and for the id). */
export interface Posting {
  word: string;
  app_id: string;
  field: SearchField;
  language: string;
}

const perLanguage = (text: Translation | undefined): [string, string][] =>
  text === undefined ? [] : typeof text === 'string' ? [['', text]] : Object.entries(text);

/**
 * The words of an app the search finds it by: every word of its names in every language and of its id, and the
 * words of its descriptions (from two letters; the search reads them in the asked language, else English).
 */
export function postingsOf(appId: string, facts: { name: Translation; description?: Translation | undefined }): Posting[] {
  const postings = new Map<string, Posting>();
  const add = (field: SearchField, language: string, words: string[]) => {
    for (const word of words) postings.set(`${word}\u0000${field}\u0000${language}`, { word, app_id: appId, field, language });
  };
  for (const [language, text] of perLanguage(facts.name)) add('name', language, wordsOf(text));
  add('id', '', appId.split('.').slice(1).flatMap(wordsOf));
  for (const [language, text] of perLanguage(facts.description))
    add(
      'description',
      language,
      wordsOf(text).filter((w) => w.length >= 2),
    );
  return [...postings.values()];
}

/** The dictionary rows of words: each word under itself, its one-letter deletions and its prefixes. */
export function dictionaryOf(words: Iterable<string>) {
  return [...new Set(words)].flatMap((word) => indexKeysOf(word).map(({ key, distance }) => ({ key, word, distance })));
}

/**
 * The dictionary lookup of a query: which keys to look up. The query words themselves match words, deletions and
 * prefixes; their deletions match words and deletions (a typo) and, from six letters on, prefixes too (a typo while
 * still typing). Shorter deletions would match the prefixes of too many words, so they match whole words only.
 */
export function lookupKeys(words: string[]): { anyDistance: string[]; wordsOnly: string[] } {
  const typos = [
    ...new Set(
      words.flatMap((w) =>
        keysOf(w)
          .filter((k) => k.distance === 1)
          .map((k) => k.key),
      ),
    ),
  ];
  const anyDistance = [...new Set([...words, ...typos.filter((k) => k.length >= 5)])];
  const wordsOnly = typos.filter((k) => k.length < 5 && !anyDistance.includes(k));
  return { anyDistance, wordsOnly };
}

/**
 * What the search needs of a live app besides its words, kept on each of its postings so that ranking and hub
 * filters read the postings alone: the languages of its names and descriptions (`,en,nl,`; `,,` when given once),
 * its platforms (`,local,cloud,`), required hardware, accepted hub versions, accepted platform versions of each
 * platform, SDK level and install count.
 */
export interface SearchDocument {
  installs: number;
  name_languages: string;
  description_languages: string;
  platforms: string;
  required_features: string;
  compatibility: string | null;
  /** The platform versions a `local` hub may have (`platformCompatibility.local`); `null` accepts any. */
  local_platform_versions: string | null;
  /** The platform versions a `cloud` hub may have (`platformCompatibility.cloud`); `null` accepts any. */
  cloud_platform_versions: string | null;
  sdk: number;
}

const listed = (values: string[]) => `,${values.join(',')},`;
const rangeOf = (range: string | undefined) => multirangeOf(range ? versionIntervals(range) : null);

export function searchDocumentOf(
  facts: {
    name: Translation;
    description?: Translation | undefined;
    platforms?: string[] | undefined;
    platformLocalRequiredFeatures?: string[] | undefined;
    compatibility?: string | undefined;
    platformCompatibility?: Record<string, string> | undefined;
    sdk?: number | undefined;
  },
  installs: number,
): SearchDocument {
  const languages = (text: Translation | undefined) => listed(typeof text === 'object' ? Object.keys(text) : []);
  return {
    installs,
    name_languages: languages(facts.name),
    description_languages: languages(facts.description),
    platforms: listed(facts.platforms ?? ['local']),
    required_features: JSON.stringify(facts.platformLocalRequiredFeatures ?? []),
    compatibility: rangeOf(facts.compatibility),
    local_platform_versions: rangeOf(facts.platformCompatibility?.local),
    cloud_platform_versions: rangeOf(facts.platformCompatibility?.cloud),
    sdk: facts.sdk ?? 3,
  };
}
