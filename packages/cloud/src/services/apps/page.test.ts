import { appPagePath } from '@hearth/contract/provider';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, startTestCloud } from '../../testing';

describeOnDatabases('the app page people open', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  it('shows a public app: name, icon, author, latest version and how to update', async () => {
    const response = await fetch(`${cloud.url}${appPagePath('com.nordheat.climate')}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<h1>NordHeat Climate</h1>');
    expect(html).toContain('Verified developer');
    expect(html).toContain('Latest version: 2.0.4');
    expect(html).toMatch(/<img src="http[^"]*\/apps\/app\/com\.nordheat\.climate\/icon"/);
    expect(html).toContain('name="viewport"');
    expect(html).toMatch(/<h2>Updating<\/h2>/);
  });

  it('answers 404 with a page for an app the catalogue does not list publicly', async () => {
    const response = await fetch(`${cloud.url}${appPagePath('com.hearth.virtual')}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('App not found');
  });
});
