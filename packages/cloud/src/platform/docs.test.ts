import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../server';
import { describeOnDatabases, startTestCloud } from '../testing';

describeOnDatabases('Cloud API reference', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  it('serves the reference page and its document', async () => {
    for (const path of ['/docs', '/docs/']) {
      const page = await fetch(`${cloud.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
    }
    const document = await fetch(`${cloud.url}/openapi.json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { paths: object }).paths).toHaveProperty(['/weather/weather']);
  });
});
