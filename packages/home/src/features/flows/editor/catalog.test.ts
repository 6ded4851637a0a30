import { describe, expect, it } from 'vitest';
import { readableTitle } from './catalog';

describe('card titles in the editor', () => {
  it("reads the ecosystem's inversion syntax in its plain form", () => {
    expect(readableTitle('Is turned !{{on|off}}')).toBe('Is turned on');
    expect(readableTitle('The state is !{{|not}}')).toBe('The state is');
    expect(readableTitle('A lock is !{{locked|unlocked}}')).toBe('A lock is locked');
    expect(readableTitle('Turn on')).toBe('Turn on');
  });
});
