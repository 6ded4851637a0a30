/*
 * The account pages' texts in the current language, and their numbers and dates written that language's way. The
 * language comes from a choice made in this browser, else the account's language once signed in, else the browser's
 * own languages; English when none is Dutch or German. One i18next instance, made when the pages load.
 */
import { addCatalogues, createI18n, formatters, localized } from '@hearth/i18n';
import { en } from './strings-en';
import { de } from './translations/de';
import { nl } from './translations/nl';

export const i18n = createI18n();
addCatalogues(i18n, 'account', { en, nl, de });

export const strings = localized(i18n, 'account', en);
export const format = formatters(i18n);
