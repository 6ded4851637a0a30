import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

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
