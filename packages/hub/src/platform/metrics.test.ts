import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';

const METRICS_TOKEN = 'hub-metrics-token-0123456789';

describe('the hub /metrics', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub({ metricsToken: METRICS_TOKEN });
  });
  afterAll(() => t.stop());

  it('serves loopback, and a request a proxy forwarded only with the metrics token', async () => {
    const local = await fetch(`${t.url}/metrics`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('hearth_hub_http_request_duration_seconds');
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const refused = await fetch(`${t.url}/metrics`, { headers: forwarded });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'missing_token', statusCode: 401 });
    // A hub session is not the metrics token.
    const session = await fetch(`${t.url}/metrics`, { headers: { ...forwarded, authorization: `Bearer ${t.token}` } });
    expect(session.status).toBe(401);
    expect(await session.json()).toMatchObject({ error: 'invalid_token' });
    const scraped = await fetch(`${t.url}/metrics`, { headers: { ...forwarded, authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('hearth_hub_process_cpu_user_seconds_total');
  });

  it('refuses a metrics token shorter than 16 characters at start', async () => {
    await expect(startTestHub({ metricsToken: 'short' })).rejects.toThrow(/HEARTH_METRICS_TOKEN/);
  });
});
