import { createInstance, type i18n as I18n } from 'i18next';
import { CHOSEN_LANGUAGE_KEY, isLanguage, LANGUAGES, type Language, pickLanguage, SOURCE_LANGUAGE } from './languages';

/** The language this browser's person chose here, if any (storage can be unavailable: then none). */
export function chosenLanguage(): Language | null {
  try {
    const stored = globalThis.localStorage?.getItem(CHOSEN_LANGUAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

const browserLanguages = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];

/** A choice made in this browser first, then the browser's languages in its order; English when none is ours. */
export const detectLanguage = (): Language => chosenLanguage() ?? pickLanguage(browserLanguages());

/**
 * One i18next instance for an app, in the detected language, holding no catalogues yet (each app adds its own with
 * `addCatalogues`). It keeps `<html lang>` on the current language, so screen readers pronounce the texts right.
 */
export function createI18n(language: Language = detectLanguage()): I18n {
  const i18n = createInstance();
  i18n.on('languageChanged', (code) => {
    if (typeof document !== 'undefined') document.documentElement.lang = code;
  });
  void i18n.init({
    lng: language,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: LANGUAGES.map(({ code }) => code),
    resources: {},
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return i18n;
}

export const currentLanguage = (i18n: I18n): Language => pickLanguage([i18n.language]);

/** The person chose `language` here: it applies now and on their next visit in this browser. */
export async function chooseLanguage(i18n: I18n, language: Language): Promise<void> {
  try {
    globalThis.localStorage?.setItem(CHOSEN_LANGUAGE_KEY, language);
  } catch {
    // Storage refused (private mode): the choice holds for this visit only.
  }
  await i18n.changeLanguage(language);
}

/**
 * The language the person's account keeps (the account pages' profile): it applies unless they chose another in this
 * browser, which is the more recent and more local choice. A language we do not speak changes nothing.
 */
export async function followAccountLanguage(i18n: I18n, language: string | null | undefined): Promise<void> {
  if (chosenLanguage() || !language) return;
  const primary = language.toLowerCase().split(/[-_]/)[0];
  if (isLanguage(primary)) await i18n.changeLanguage(primary);
}
