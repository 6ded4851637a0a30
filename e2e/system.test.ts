import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, expectAccessible, launchBrowser } from './browser';
import { horizontalOverflow, screenshot, WIDTHS } from './layout';
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
    // Without SMTP_URL the cloud's mail is readable in the development mailbox, whose address is printed.
    expect(system.output()).toContain(`Dev mailbox    ${system.cloudUrl}/dev/mail`);
    expect((await fetch(`${system.cloudUrl}/dev/mail`)).status).toBe(200);
  });

  /** A reference page opened and shown: the banner, then its operation groups. */
  async function openReference(page: Page, url: string) {
    await page.goto(`${url}/docs/`);
    await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 });
  }

  /** An operation's block on the reference page, by its path (and method when the path has several). */
  const operation = (page: Page, path: string, method?: string) =>
    page.locator(`.opblock${method ? `.opblock-${method}` : ''}`, {
      has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
    });

  it("the API references of the cloud and the hubs are Hearth's, fit 320 to 1280 px, and open fast", async () => {
    const hub = system.hubs[0] as RunningSystem['hubs'][number];
    for (const [name, url, group] of [
      ['cloud', system.cloudUrl, 'cloud'],
      ['hub', hub.url, 'devices'],
    ] as const) {
      for (const width of WIDTHS) {
        const page = await browser.newPage({ viewport: { width, height: 800 }, isMobile: width <= 768 });
        const started = Date.now();
        await openReference(page, url);
        const opened = Date.now() - started;
        expect(await page.title()).toBe(name === 'cloud' ? 'Hearth cloud API reference' : `Hearth hub ${hub.id} API reference`);
        await page.locator('.hearth-bar').getByText('Hearth', { exact: true }).waitFor();
        expect(await page.evaluate(() => window.innerWidth), 'laid out at the screen width').toBe(width);
        // No framework branding: neither its top bar nor its logo.
        expect(await page.locator('.topbar, img[src*="logo"]').count()).toBe(0);
        await page.locator(`#operations-tag-${group}`).click();
        await page.locator('.opblock-summary').first().click();
        await page.locator('.opblock-body').first().waitFor();
        expect(await horizontalOverflow(page), `${name} reference at ${width} px`).toEqual([]);
        await expectAccessible(page, `${name} reference at ${width} px`);
        await screenshot(page, `docs-${name}-${width}`);
        // Generous for a loaded test machine: it took ~5.5 s on an idle one before (Swagger UI resolving OpenAPI 3.1).
        expect(opened, `${name} reference opened in ${opened} ms`).toBeLessThan(8_000);
        await page.close();
      }
    }
    // Swagger UI's 1.5 MB script travels compressed.
    const bundle = await fetch(`${system.cloudUrl}/docs/static/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'br' } });
    expect(bundle.headers.get('content-encoding')).toBe('br');
    expect(Number(bundle.headers.get('content-length'))).toBeLessThan(600_000);
  });

  it('the reference searches operations, describes each group and documents the token endpoint as a form', async () => {
    const page = await browser.newPage();
    await openReference(page, system.cloudUrl);
    await page.getByRole('searchbox', { name: 'Search operations' }).fill('health');
    await operation(page, '/cloud/health').waitFor();
    const shown = await page.locator('.opblock-summary-path').allTextContents();
    expect(shown).toContain('/cloud/health');
    expect(shown.every((path) => /health|status/.test(path))).toBe(true);
    await page.close();

    const document = (await (await fetch(`${system.cloudUrl}/openapi.json`)).json()) as {
      tags: { name: string; description?: string }[];
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    expect(document.tags.length).toBeGreaterThan(5);
    expect(document.tags.filter((tag) => !tag.description)).toEqual([]);
    const token = document.paths['/cloud/oauth2/token']?.post?.requestBody?.content ?? {};
    expect(Object.keys(token)[0]).toBe('application/x-www-form-urlencoded');
  });

  it("the hub reference shows an operation's example request and answer, its status column readable", async () => {
    const hub = system.hubs[0] as RunningSystem['hubs'][number];
    const page = await browser.newPage({ viewport: { width: 390, height: 800 }, isMobile: true });
    await openReference(page, hub.url);
    await page.locator('#operations-tag-devices').click();
    const getDevice = operation(page, '/api/manager/devices/device/{id}', 'get');
    await getDevice.locator('.opblock-summary').click();
    const answer = getDevice.locator('.responses-wrapper .example');
    await answer.first().waitFor();
    expect(await answer.first().textContent()).toContain('Hallway light');
    expect(await getDevice.locator('.parameters').textContent()).toMatch(/Example\s*:\s*[0-9a-f-]{36}/);
    // The "Code" header fits its column (a fixed table layout once squeezed it under "Description").
    const header = getDevice.locator('.responses-table .col_header.response-col_status');
    expect(await header.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
    await screenshot(page, 'docs-hub-example-390');
    await page.close();
  });

  it('Authorize signs in with a Hearth account (PKCE) and "Try it" then calls as that account', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openReference(page, system.cloudUrl);
    await page.locator('.hearth-hint').getByText('Authorize').waitFor();
    await page.getByRole('button', { name: 'Authorize', exact: true }).first().click();
    const dialog = page.locator('.dialog-ux');
    await dialog.getByText('authorizationCode with PKCE').first().waitFor();
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click(),
    ]);
    await popup.getByLabel('E-mail address').fill('demo@hearth.test');
    await popup.getByLabel('Password').fill('hearth-demo-password');
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await dialog.getByText('Logout').waitFor({ timeout: 30_000 });
    await dialog.locator('.btn-done').first().click();

    await page.locator('#operations-tag-cloud').click();
    const me = operation(page, '/cloud/user/me', 'get');
    await me.locator('.opblock-summary').click();
    await me.getByRole('button', { name: 'Try it out' }).click();
    await me.getByRole('button', { name: 'Execute' }).click();
    await me.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor({ timeout: 30_000 });
    expect(await me.locator('.live-responses-table').textContent()).toContain('demo@hearth.test');
    await context.close();
  });
});
