/*
 * The app's texts in the current language, and its numbers and dates written that language's way. The language comes
 * from a choice made in this browser, else the browser's own languages; English when neither is Dutch or German.
 * One i18next instance for the app, made when it loads: components read texts at module level (`const t =
 * strings.flows`), so the catalogue is one object whose entries look the language up each time they are read.
 */
import { addCatalogues, createI18n, formatters, localized } from '@hearth/i18n';
import { en } from './strings-en';
import { de } from './translations/de';
import { nl } from './translations/nl';

export const i18n = createI18n();
addCatalogues(i18n, 'home', { en, nl, de });

export const strings = localized(i18n, 'home', en);
export const format = formatters(i18n);
