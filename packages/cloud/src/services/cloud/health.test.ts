import { cloudOperations, fullPath, listOperations, operationId } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, startTestCloud } from '../../testing';

describeOnDatabases('cloud health and routes', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
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
});
