import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { reportsManager } from '.';

describe('reports manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('is private: refused to every non-internal session', async () => {
    expect((await t.call('GET', '/reports/monthly/summary')).status).toBe(403);
    expect((await t.call('GET', '/reports/monthly/detail')).status).toBe(403);
    expect((await t.call<{ month: string }>('GET', '/reports/state')).body.month).toMatch(/^\d{4}-\d{2}$/);
  });

  it('counts what happened in a month, in total and per day', async () => {
    await t.call('GET', '/logic/webhook/doorbell');
    await t.call('GET', '/logic/webhook/doorbell');
    await t.call('POST', '/speech-output/say', { text: 'Hi' });
    // As the transport would call them for an internal session.
    const handlers = Object.fromEntries(
      (t.hub.managers.get(reportsManager.name)?.implementations ?? []).map((i) => [i.operation.name, i.handler]),
    );
    const month = new Date().toISOString().slice(0, 7);
    const summary = (await handlers.getMonthlySummary?.({ query: {} } as never)) as Record<string, number>;
    expect(summary).toMatchObject({ month, webhookEvents: 2, utterances: 1, backups: 0, users: 1 });
    const detail = (await handlers.getMonthlyDetail?.({ query: { month } } as never)) as {
      perDay: { webhookEvents: Record<string, number> };
    };
    expect(Object.values(detail.perDay.webhookEvents)).toEqual([2]);
    const past = (await handlers.getMonthlySummary?.({ query: { month: '2001-01' } } as never)) as Record<string, number>;
    expect(past.webhookEvents).toBe(0);
  });
});
