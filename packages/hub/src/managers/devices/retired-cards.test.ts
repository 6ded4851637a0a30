import { describe, expect, it } from 'vitest';
import { isRetiredCard, retiredCardCandidates } from './ecosystem-cards';

/** Which of Hearth's own device card ids the ecosystem's cards replace, and with what arguments. */
describe('retired device card ids', () => {
  it('maps each to the ecosystem’s card and argument, by value where the value picks the card', () => {
    expect(retiredCardCandidates('action', 'onoff_set', { value: true }, ['onoff'])[0]).toEqual({ id: 'on', args: {} });
    expect(retiredCardCandidates('action', 'onoff_set', { value: false }, ['onoff'])[0]).toEqual({ id: 'off', args: {} });
    expect(retiredCardCandidates('action', 'onoff_set', { value: '[[homey:manager:logic|x]]' }, ['onoff'])).toEqual([]);
    expect(retiredCardCandidates('action', 'dim_set', { value: 0.2 }, ['onoff', 'dim'])).toEqual([
      { id: 'dim', args: { dim: 0.2 } },
    ]);
    expect(retiredCardCandidates('action', 'target_temperature_set', { value: 21 }, ['target_temperature'])).toEqual([
      { id: 'target_temperature_set', args: { target_temperature: 21 } },
    ]);
    expect(retiredCardCandidates('condition', 'thermostat_mode_equals', { value: 'heat' }, ['thermostat_mode'])).toEqual([
      { id: 'thermostat_mode_is', args: { thermostat_mode: 'heat' } },
    ]);
    expect(retiredCardCandidates('action', 'onoff_toggle', {}, ['onoff'])[0]).toEqual({ id: 'toggle', args: {} });
    expect(retiredCardCandidates('condition', 'onoff', {}, ['onoff'])[0]).toEqual({ id: 'on', args: {} });
    // The ecosystem's own condition of the same id: nothing to replace.
    expect(retiredCardCandidates('condition', 'alarm_motion', {}, ['alarm_motion'])).toEqual([]);
  });

  it('retires only the ids whose work the ecosystem’s cards do whole', () => {
    expect(isRetiredCard('action', 'onoff_set', 'onoff')).toBe(true);
    expect(isRetiredCard('action', 'dim_set', 'dim')).toBe(true);
    expect(isRetiredCard('action', 'target_temperature_set', 'target_temperature')).toBe(true);
    expect(isRetiredCard('condition', 'onoff', 'onoff')).toBe(true);
    // The ecosystem sets a vacuum cleaner to some of its states only (clean, dock, …): Hearth's card stays.
    expect(isRetiredCard('action', 'vacuumcleaner_state_set', 'vacuumcleaner_state')).toBe(false);
    expect(isRetiredCard('condition', 'measure_temperature_greater_than', 'measure_temperature')).toBe(false);
    expect(isRetiredCard('condition', 'alarm_motion', 'alarm_motion')).toBe(false);
  });
});
