// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { addCatalogues, chooseLanguage, createI18n, followAccountLanguage, formatters, localized, pickLanguage } from './index';
import { missingKeys } from './keys';

const en = { title: 'Home', turnOn: (name: string) => `Turn ${name} on`, nested: { on: 'On' } } as const;
const nl = { title: 'Thuis', turnOn: (name: string) => `${name} aanzetten`, nested: { on: 'Aan' } };
const de = { title: 'Zuhause', turnOn: (name: string) => `${name} einschalten`, nested: { on: 'An' } };

afterEach(() => localStorage.clear());

describe('languages', () => {
  it('picks the first browser language we speak by its primary subtag, else English', () => {
    expect(pickLanguage(['fr-FR', 'nl-BE', 'de'])).toBe('nl');
    expect(pickLanguage(['de_AT'])).toBe('de');
    expect(pickLanguage(['fr', 'ja'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('reads every text in the current language, through parts captured before the change', async () => {
    const i18n = createI18n('en');
    addCatalogues(i18n, 'app', { en, nl, de });
    const strings = localized(i18n, 'app', en);
    const nested = strings.nested;
    expect([strings.title, strings.turnOn('Lamp'), nested.on]).toEqual(['Home', 'Turn Lamp on', 'On']);
    await chooseLanguage(i18n, 'nl');
    expect([strings.title, strings.turnOn('Lamp'), nested.on]).toEqual(['Thuis', 'Lamp aanzetten', 'Aan']);
    expect(document.documentElement.lang).toBe('nl');
    expect(localStorage.getItem('hearth.language')).toBe('nl');
  });

  it("follows the account's language unless this browser chose one", async () => {
    const i18n = createI18n('en');
    await followAccountLanguage(i18n, 'de-DE');
    expect(i18n.language).toBe('de');
    await followAccountLanguage(i18n, 'fr');
    expect(i18n.language).toBe('de');
    await chooseLanguage(i18n, 'nl');
    await followAccountLanguage(i18n, 'en');
    expect(i18n.language).toBe('nl');
  });

  it('writes numbers and dates the current language’s way', async () => {
    const i18n = createI18n('en');
    const format = formatters(i18n);
    expect(format.unit(1234.5, 'kWh')).toBe('1,234.5 kWh');
    await i18n.changeLanguage('de');
    expect(format.unit(1234.5, 'kWh')).toBe('1.234,5 kWh');
    expect(format.date('2026-11-24T12:00:00Z', { day: 'numeric', month: 'long', timeZone: 'UTC' })).toBe('24. November');
    await i18n.changeLanguage('nl');
    expect(format.date('2026-11-24T12:00:00Z', { day: 'numeric', month: 'long', timeZone: 'UTC' })).toBe('24 november');
  });

  it('names the entries a translation lacks or holds as another kind', () => {
    expect(missingKeys(en, nl)).toEqual([]);
    expect(missingKeys(en, { title: 'Thuis', turnOn: 'x', nested: {} })).toEqual(['turnOn', 'nested.on']);
  });
});
