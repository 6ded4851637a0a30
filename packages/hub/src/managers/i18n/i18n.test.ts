import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { localTime } from './timezone';

describe('i18n manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub({ language: 'nl' });
  });
  afterAll(() => t.stop());

  it('answers defaults, stores values durably and restores defaults on unset', async () => {
    expect((await t.call('GET', '/i18n/option/language')).body).toEqual({ value: 'nl' });
    expect((await t.call('GET', '/i18n/option/units')).body).toEqual({ value: 'metric' });
    expect((await t.call('PUT', '/i18n/option/units', { value: 'imperial' })).body).toEqual({ value: 'imperial' });
    expect((await t.call('PUT', '/i18n/option/language', { value: 'en' })).status).toBe(200);
    // The time zone is the host's until one is picked.
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect((await t.call('GET', '/i18n/state')).body).toEqual({ language: 'en', timezone, units: 'imperial' });
    expect((await t.call<{ language: string }>('GET', '/system/')).body.language).toBe('en');
    expect(t.hub.context.settings.get('i18n.option.units', null)).toBe('imperial');
    expect((await t.call('DELETE', '/i18n/option/units')).status).toBe(204);
    expect((await t.call('GET', '/i18n/option/units')).body).toEqual({ value: 'metric' });
    // The language falls back to the hub's configured one.
    expect((await t.call('DELETE', '/i18n/option/language')).status).toBe(204);
    expect((await t.call('GET', '/i18n/option/language')).body).toEqual({ value: 'nl' });
  });

  it('refuses values of the wrong type or outside the allowed set, naming the field', async () => {
    const wrongType = await t.call<{ error: string; error_description: string }>('PUT', '/i18n/option/units', { value: 3 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error_description).toContain('value');
    const notAllowed = await t.call<{ error_description: string }>('PUT', '/i18n/option/units', { value: 'furlongs' });
    expect(notAllowed.status).toBe(400);
    expect(notAllowed.body.error_description).toContain('value');
    const missing = await t.call<{ error: string; error_description: string }>('PUT', '/i18n/option/language', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error_description).toBe('Missing Parameter: value');
  });

  it('requires a token', async () => {
    expect((await t.call('GET', '/i18n/option/language', undefined, null)).status).toBe(401);
  });
});

describe('local time in the hub’s zone', () => {
  it('finds local midnight on the days the clocks change, not the wall clock’s hours back', () => {
    // Noon on Amsterdam's 25-hour day is 13 hours after its midnight (22:00 UTC the day before), 12 on the wall clock.
    const noonAutumn = localTime(Date.parse('2027-10-31T11:00:00Z'), 'Europe/Amsterdam');
    expect(noonAutumn).toEqual({ minute: 12 * 60, weekday: 0, midnight: Date.parse('2027-10-30T22:00:00Z') });
    const noonSpring = localTime(Date.parse('2027-03-28T10:00:00Z'), 'Europe/Amsterdam');
    expect(noonSpring).toEqual({ minute: 12 * 60, weekday: 0, midnight: Date.parse('2027-03-27T23:00:00Z') });
    expect(localTime(Date.parse('2027-03-28T00:30:00Z'), 'Europe/Amsterdam').minute).toBe(90);
  });
});
