import { cloudOperations, fullPath, listOperations, operationId } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, startTestCloud } from '../../testing';

const METRICS_TOKEN = 'cloud-metrics-token-0123456789';

describeOnDatabases('cloud health and routes', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend, { metricsToken: METRICS_TOKEN });
  });
  afterAll(() => cloud.stop());

  it('answers GET /cloud/health after a database round trip', async () => {
    const response = await fetch(`${cloud.url}/cloud/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ healthy: true, database: backend });
  });

  it('answers unknown routes with the uniform 404 body', async () => {
    const response = await fetch(`${cloud.url}/cloud/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'route_not_found', statusCode: 404 });
  });

  it('serves every cloud operation declared in the contract exactly once', () => {
    const operations = listOperations(cloudOperations);
    const missing = operations.filter((o) => !cloud.app.hasRoute({ method: o.method, url: fullPath(o) })).map(operationId);
    expect(missing).toEqual([]);
  });

  it('publishes its OpenAPI document', async () => {
    const document = (await (await fetch(`${cloud.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/cloud/health']?.get?.operationId).toBe('cloud:cloud.getHealth');
  });

  it('serves /metrics to loopback, and to a request a proxy forwarded only with the metrics token', async () => {
    const local = await fetch(`${cloud.url}/metrics`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('hearth_cloud_http_request_duration_seconds');
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const refused = await fetch(`${cloud.url}/metrics`, { headers: forwarded });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'missing_token', statusCode: 401 });
    const wrong = await fetch(`${cloud.url}/metrics`, { headers: { ...forwarded, authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    const scraped = await fetch(`${cloud.url}/metrics`, { headers: { ...forwarded, authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('hearth_cloud_process_cpu_user_seconds_total');
  });
});
