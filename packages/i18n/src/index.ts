export { addCatalogues, type Catalogue, type Catalogues, localized } from './catalogue';
export { type Formatters, formatters, localeOf } from './format';
export { chooseLanguage, chosenLanguage, createI18n, currentLanguage, detectLanguage, followAccountLanguage } from './i18n';
export { CHOSEN_LANGUAGE_KEY, isLanguage, LANGUAGES, type Language, pickLanguage, SOURCE_LANGUAGE } from './languages';
export { LanguageProvider, LanguageSwitcher, type LanguageSwitcherProps, useLanguage } from './react';
