import type { i18n as I18n } from 'i18next';
import { currentLanguage } from './i18n';

/**
 * The locale numbers and dates are written in: the browser's own tag when it is a variant of the current language
 * (en-GB writes 24-hour times, de-AT its months), else the language itself.
 */
export function localeOf(i18n: I18n): string {
  const language = currentLanguage(i18n);
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return browser.find((tag) => tag.toLowerCase().split('-')[0] === language) ?? language;
}

type When = Date | string | number;
const toDate = (when: When) => (when instanceof Date ? when : new Date(when));

/** Numbers, dates, times and measured values written the current language's way, read at each call. */
export function formatters(i18n: I18n) {
  const number = (value: number, options?: Intl.NumberFormatOptions) =>
    new Intl.NumberFormat(localeOf(i18n), options).format(value);
  return {
    number,
    /** A value with a unit symbol (W, kWh, °C, lx): the symbol is the same in every language, the number is not. */
    unit: (value: number, unit: string, options?: Intl.NumberFormatOptions) =>
      unit === '%' ? number(value / 100, { ...options, style: 'percent' }) : `${number(value, options)}${unit ? ` ${unit}` : ''}`,
    currency: (amount: number, currency: string) => number(amount, { style: 'currency', currency }),
    date: (when: When, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
      new Intl.DateTimeFormat(localeOf(i18n), options).format(toDate(when)),
    time: (when: When, options: Intl.DateTimeFormatOptions = { timeStyle: 'medium' }) =>
      new Intl.DateTimeFormat(localeOf(i18n), options).format(toDate(when)),
    dateTime: (when: When, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }) =>
      new Intl.DateTimeFormat(localeOf(i18n), options).format(toDate(when)),
  };
}

export type Formatters = ReturnType<typeof formatters>;
