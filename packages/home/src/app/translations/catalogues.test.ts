import { missingKeys } from '@hearth/i18n/testing';
import { describe, expect, it } from 'vitest';
import { en } from '../strings-en';
import { de } from './de';
import { nl } from './nl';

describe('the household app’s catalogues', () => {
  it.each([
    ['nl', nl],
    ['de', de],
  ])('%s has every entry of the English catalogue, of the same kind', (_, catalogue) => {
    expect(missingKeys(en, catalogue)).toEqual([]);
  });

  it('translates: the page titles differ from the English ones', () => {
    for (const catalogue of [nl, de]) {
      expect(catalogue.home.title).not.toBe(en.home.title);
      expect(catalogue.nav.more).not.toBe(en.nav.more);
      expect(catalogue.home.turnOn('Lamp')).not.toBe(en.home.turnOn('Lamp'));
    }
  });
});
