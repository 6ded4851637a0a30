import { describe, expect, it } from 'vitest';
import { inOrder } from './sessions';

describe('the order of sign-ins on the Security page', () => {
  it("puts this device's first, then the most recently used, and leaves the list it was given as it was", () => {
    const given = [
      { id: 'phone', lastUsedAt: '2026-11-29T10:00:00.000Z' },
      { id: 'tablet', lastUsedAt: '2026-11-29T12:00:00.000Z' },
      { id: 'this', current: true, lastUsedAt: '2026-11-29T09:00:00.000Z' },
      { id: 'laptop', current: false, lastUsedAt: '2026-11-28T12:00:00.000Z' },
    ];
    expect(inOrder(given).map((session) => session.id)).toEqual(['this', 'tablet', 'phone', 'laptop']);
    expect(given[0]?.id).toBe('phone');
  });
});
