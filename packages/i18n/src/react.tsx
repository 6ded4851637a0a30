import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from './i18n';
import { isLanguage, LANGUAGES, type Language } from './languages';

/** The switcher's own label when the app gives none, in each language. */
const LANGUAGE_LABEL: Record<Language, string> = { en: 'Language', nl: 'Taal', de: 'Sprache' };

/** Gives the app's i18next instance to `useLanguage` and the switcher below it. */
export function LanguageProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
}

/**
 * The current language; the component calling it renders again when the language changes. An app's root calls it
 * so that its whole tree renders again in the new language (children passed in from above it would not).
 */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return currentLanguage(i18n);
}

export interface LanguageSwitcherProps {
  /** The field's label (the app's own words); "Language" in the current language when omitted. */
  label?: string;
  id?: string;
  className?: string;
  selectClassName?: string;
  /** Told after the language changed (the account pages also save it to the account). */
  onChosen?: (language: Language) => void;
}

/** A labelled list of the languages, each named in itself; choosing one applies it and keeps it in this browser. */
export function LanguageSwitcher({
  label,
  id = 'language-switcher',
  className,
  selectClassName,
  onChosen,
}: LanguageSwitcherProps) {
  const { i18n } = useTranslation();
  const language = currentLanguage(i18n);
  return (
    <div className={className}>
      <label htmlFor={id}>{label ?? LANGUAGE_LABEL[language]}</label>
      <select
        id={id}
        className={selectClassName}
        value={language}
        onChange={(event) => {
          const chosen = event.target.value;
          if (!isLanguage(chosen)) return;
          void chooseLanguage(i18n, chosen).then(() => onChosen?.(chosen));
        }}
      >
        {LANGUAGES.map(({ code, name }) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
