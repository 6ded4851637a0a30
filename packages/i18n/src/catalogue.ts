import type { i18n as I18n } from 'i18next';
import { currentLanguage } from './i18n';
import { LANGUAGES, type Language, SOURCE_LANGUAGE } from './languages';

/**
 * The shape every translation of an English catalogue must have: the same keys, a string where English has one and a
 * function with the same parameters where English builds its text from values. English is written `as const`, so its
 * literal texts are widened here; a key missing from a translation fails the type check.
 */
export type Catalogue<English> = {
  -readonly [Key in keyof English]: English[Key] extends string
    ? string
    : English[Key] extends (...args: infer Args) => string
      ? (...args: Args) => string
      : Catalogue<English[Key]>;
};

/** Every language's catalogue of one namespace; English is the source. */
export type Catalogues<English> = { en: English } & { [Code in Exclude<Language, 'en'>]: Catalogue<English> };

/**
 * Registers each language's catalogue of `namespace` with the i18next instance, which holds them as resources. As they
 * are: i18next would otherwise copy them through JSON, which drops the texts written as functions.
 */
export function addCatalogues<English extends object>(i18n: I18n, namespace: string, catalogues: Catalogues<English>): void {
  for (const { code } of LANGUAGES)
    i18n.addResourceBundle(code, namespace, catalogues[code] as object, false, true, { skipCopy: true });
}

/**
 * The catalogue components read, `strings.home.title` and `strings.home.turnOn(name)` as before, in whatever language
 * is current when they read it: every text is a getter (every function a wrapper) that asks i18next for the current
 * language's entry, falling back to English. Components capture parts of it at module level
 * (`const t = strings.flows`), so it must stay one object whose entries look up, not be swapped for another.
 */
export function localized<English extends object>(i18n: I18n, namespace: string, english: English): Catalogue<English> {
  const lookup = (path: string[]): unknown => {
    for (const language of [currentLanguage(i18n), SOURCE_LANGUAGE]) {
      const found = i18n.getResource(language, namespace, path.join('.'));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const bind = (node: object, path: string[]): object => {
    const bound: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (typeof value === 'function')
        bound[key] = (...args: unknown[]) => (lookup(at) as (...args: unknown[]) => string)(...args);
      else if (typeof value === 'object' && value !== null) bound[key] = bind(value, at);
      else Object.defineProperty(bound, key, { enumerable: true, get: () => lookup(at) });
    }
    return bound;
  };
  return bind(english, []) as Catalogue<English>;
}
