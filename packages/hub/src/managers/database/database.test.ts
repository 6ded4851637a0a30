import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('database manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('reports its size and optimises the database', async () => {
    const before = await t.call<{ sizeOnDisk: number; journalMode: string; lastOptimized: string | null }>(
      'GET',
      '/database/state',
    );
    expect(before.body.sizeOnDisk).toBeGreaterThan(0);
    expect(before.body.journalMode).toBe('wal');
    expect(before.body.lastOptimized).toBeNull();
    const result = await t.call<{ sizeBefore: number; sizeAfter: number }>('POST', '/database/optimize', {});
    expect(result.status).toBe(200);
    expect(result.body.sizeAfter).toBeGreaterThan(0);
    expect((await t.call<{ lastOptimized: string }>('GET', '/database/state')).body.lastOptimized).toMatch(/^\d{4}-/);
  });
});
