import { describe, expect, it } from 'vitest';
import { repetitionOf, summary } from './model';

describe('alarm repetition', () => {
  it('says how often in words', () => {
    expect(summary(repetitionOf([]))).toBe('Once');
    expect(summary(repetitionOf(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']))).toBe('Weekdays');
    expect(summary(repetitionOf(['saturday', 'sunday']))).toBe('Weekends');
    expect(summary(repetitionOf(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']))).toBe(
      'Every day',
    );
    expect(summary(repetitionOf(['monday', 'wednesday']))).toBe('Mon, Wed');
  });

  it('names every weekday, ticked or not, as the hub requires', () => {
    expect(Object.keys(repetitionOf(['friday']))).toHaveLength(7);
    expect(repetitionOf(['friday'])).toMatchObject({ friday: true, monday: false });
  });
});
