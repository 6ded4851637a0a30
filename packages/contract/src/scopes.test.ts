import { describe, expect, it } from 'vitest';
import { hubOperations } from './hub';
import { HUB_SCOPES, hasScope, intersectScopes, scopeCovers } from './scopes';

describe('scopes', () => {
  it.each([
    ['homey', 'homey.device.control', true],
    ['homey.device', 'homey.device.readonly', true],
    ['homey.device', 'homey.device.control', true],
    ['homey.device.readonly', 'homey.device.readonly', true],
    ['homey.device.readonly', 'homey.device', false],
    ['homey.device.readonly', 'homey.device.control', false],
    ['homey.dev', 'homey.device', false],
    ['homey.user.self', 'homey.user.self', true],
    ['homey.user.self', 'homey.user', false],
  ])('%s covers %s: %s', (granted, required, expected) => {
    expect(scopeCovers(granted, required)).toBe(expected);
  });

  it('passes a session without scopes and an operation without a scope', () => {
    expect(hasScope(null, 'homey.system')).toBe(true);
    expect(hasScope([], null)).toBe(true);
    expect(hasScope([], 'homey.system.readonly')).toBe(false);
  });

  it('intersects requested scopes with the allowed ones', () => {
    expect(
      intersectScopes(['homey.device', 'homey.zone.readonly', 'homey.system'], ['homey.device.readonly', 'homey.zone']),
    ).toEqual(['homey.device.readonly', 'homey.zone.readonly']);
  });

  it('lists every scope a hub operation requires, and no other', () => {
    const required = new Set<string>();
    for (const manager of Object.values(hubOperations))
      for (const operation of Object.values(manager as Record<string, { scope: string | null }>))
        if (operation.scope) required.add(operation.scope);
    expect([...HUB_SCOPES]).toEqual([...required].sort());
  });
});
