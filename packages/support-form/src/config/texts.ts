/*
 * The form's texts in the current language, and its dates written that language's way. The language comes from a
 * choice made in this browser, else the browser's own languages; English when neither is Dutch or German. The
 * English catalogue holds the seed's texts word for word.
 */
import { addCatalogues, createI18n, formatters, localized } from '@hearth/i18n';
import { en } from './texts-en';
import { de } from './translations/de';
import { nl } from './translations/nl';

export const i18n = createI18n();
addCatalogues(i18n, 'support', { en, nl, de });

export const texts = localized(i18n, 'support', en);
export const format = formatters(i18n);

/** An option's label as shown: the catalogue's by its value, else the tree's (names of hubs, apps, devices). */
export const optionLabel = (option: { value: string; label: string }): string =>
  (texts.options as Record<string, string | undefined>)[option.value] ?? option.label;

/** A group's title as shown, by its English title in the tree. */
export const groupTitle = (title: string): string => (texts.groups as Record<string, string | undefined>)[title] ?? title;
