/** The languages the front ends speak, each named in itself (as a switcher lists them). English is the source. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'de', name: 'Deutsch' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];
export const SOURCE_LANGUAGE: Language = 'en';

/** Where this browser keeps the language its person chose (a choice here wins over the account's and the browser's). */
export const CHOSEN_LANGUAGE_KEY = 'hearth.language';

export const isLanguage = (code: unknown): code is Language =>
  typeof code === 'string' && LANGUAGES.some((language) => language.code === code);

/**
 * The first of `tags` (BCP 47, best first: `nl-BE`, `de`, …) that names a language we speak, by its primary subtag;
 * English when none does.
 */
export function pickLanguage(tags: readonly (string | null | undefined)[]): Language {
  for (const tag of tags) {
    const primary = tag?.toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return SOURCE_LANGUAGE;
}
