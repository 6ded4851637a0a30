import { describe, expect, it } from 'vitest';
import { stepWords } from './TraceList';

describe('a run step in words', () => {
  it('reads the card title the hub gives, else the card id in words', () => {
    const at = Date.UTC(2026, 10, 29, 8, 0, 0);
    const titled = stepWords({
      at,
      kind: 'action',
      card: 'homey:device:d1:on',
      title: 'Turn on — Hallway light',
      outcome: 'done',
    });
    expect(titled).toContain('Turn on — Hallway light');
    expect(titled).not.toContain('homey:device');
    expect(titled).toMatch(/: done$/);
    expect(stepWords({ at, kind: 'action', card: 'homey:app:x:say_hello', outcome: 'started' })).toContain('say hello');
  });
});
