import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchBrowser } from './browser';
import { type RunningSystem, startSystem } from './system';

describe.skipIf(!chromiumPath)('the whole system, started as npm start does', () => {
  let system: RunningSystem;
  let browser: Browser;

  beforeAll(async () => {
    [system, browser] = await Promise.all([startSystem(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('runs the cloud and three demo hubs that answer their pings', async () => {
    expect(system.hubs).toHaveLength(3);
    for (const hub of system.hubs) {
      const response = await fetch(`${hub.url}/api/manager/system/ping?id=${hub.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-homey-id')).toBe(hub.id);
      const info = await fetch(`${hub.url}/api/manager/system/`, { headers: { authorization: `Bearer ${hub.ownerToken}` } });
      expect((await info.json()).id).toBe(hub.id);
    }
    expect(await (await fetch(`${system.cloudUrl}/cloud/health`)).json()).toMatchObject({ healthy: true });
    expect(system.output()).toContain('demo@hearth.test');
  });

  it("loads the cloud's API reference page in Chromium", async () => {
    const page = await browser.newPage();
    await page.goto(`${system.cloudUrl}/docs/`);
    await page.getByText('Hearth cloud').first().waitFor({ timeout: 30_000 });
    // Operations are grouped by service and collapsed; open the accounts service's group.
    await page.locator('#operations-tag-cloud').click();
    await page.getByText('/cloud/health').first().waitFor({ timeout: 30_000 });
    expect(await page.title()).toBeTruthy();
    await page.close();
  });
});
