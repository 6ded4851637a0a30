import { missingKeys } from '@hearth/i18n/testing';
import { describe, expect, it } from 'vitest';
import { en } from '../strings-en';
import { de } from './de';
import { nl } from './nl';

describe('the account pages’ catalogues', () => {
  it.each([
    ['nl', nl],
    ['de', de],
  ])('%s has every entry of the English catalogue, of the same kind', (_, catalogue) => {
    expect(missingKeys(en, catalogue)).toEqual([]);
  });

  it('translates: headings, sentences built from values and legal texts differ from the English ones', () => {
    for (const catalogue of [nl, de]) {
      expect(catalogue.shell.profile).not.toBe(en.shell.profile);
      expect(catalogue.profile.hello('Uma')).not.toBe(en.profile.hello('Uma'));
      expect(catalogue.security.title).not.toBe(en.security.title);
      expect(catalogue.terms.title).not.toBe(en.terms.title);
      expect(catalogue.signUp.strength(4)).not.toBe(en.signUp.strength(4));
    }
  });
});
