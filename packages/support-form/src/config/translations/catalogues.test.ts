import { missingKeys } from '@hearth/i18n/testing';
import { describe, expect, it } from 'vitest';
import { en } from '../texts-en';
import { seedTexts } from '../texts-seed';
import { de } from './de';
import { nl } from './nl';

describe('the support form’s catalogues', () => {
  it.each([
    ['nl', nl],
    ['de', de],
  ])(
    '%s has every entry of the English catalogue (every step, option and group of the tree too), of the same kind',
    (_, catalogue) => {
      expect(missingKeys(en, catalogue)).toEqual([]);
    },
  );

  it('keeps the seed’s texts word for word in English, and translates them', () => {
    for (const [key, text] of Object.entries(seedTexts)) {
      const ours = en[key as keyof typeof seedTexts];
      if (typeof text === 'string') expect(ours, key).toBe(text);
      else expect((ours as (value: string) => string)('x'), key).toBe(text('x'));
    }
    for (const catalogue of [nl, de]) {
      expect(catalogue.loginTitle).not.toBe(en.loginTitle);
      expect(catalogue.steps.mainCategory.question).not.toBe(en.steps.mainCategory.question);
      expect(catalogue.groups['Wireless Technologies']).not.toBe('Wireless Technologies');
      expect(catalogue.greeting('Dana')).not.toBe(en.greeting('Dana'));
    }
  });
});
