import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The hub's demo seed is not part of its public entry; tests of the client reach for it directly.
import { seedDemoHub } from '../../hub/src/runtime/seed';
import { bundleClient } from '../scripts/bundle.mjs';
import { HUB_ID, startTinyServer, type TinyServer } from './testing/servers';
import { type RunningWorld, startWorld } from './testing/world';

/** Debian's Chromium; missing, the suite is skipped loudly (and fails with CI=true). */
const chromiumPath = (() => {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(path)) return path;
  if (process.env.CI === 'true') throw new Error(`Chromium is required in CI but missing at ${path}`);
  console.warn(`⚠ SKIPPED client browser tests: no Chromium at ${path}`);
  return null;
})();

const SUPPORT_CLIENT = 'hearth-support-form';

/** Registers the test site as a redirect address of an OAuth2 client (the cloud has no API for that yet). */
async function allowRedirect(world: RunningWorld, clientId: string, uri: string): Promise<void> {
  type Query = {
    select(column: string): Query;
    set(values: object): Query;
    where(column: string, op: string, value: string): Query;
    executeTakeFirstOrThrow(): Promise<{ redirect_uris: unknown }>;
    execute(): Promise<unknown>;
  };
  const db = world.cloud.context.database.db as unknown as { selectFrom(t: string): Query; updateTable(t: string): Query };
  const row = await db.selectFrom('oauth_clients').select('redirect_uris').where('id', '=', clientId).executeTakeFirstOrThrow();
  const uris =
    typeof row.redirect_uris === 'string' ? (JSON.parse(row.redirect_uris) as string[]) : (row.redirect_uris as string[]);
  await db
    .updateTable('oauth_clients')
    .set({ redirect_uris: JSON.stringify([...uris, uri]) })
    .where('id', '=', clientId)
    .execute();
}

describe.skipIf(!chromiumPath)('the client in Chromium (real cloud and hub)', () => {
  let world: RunningWorld;
  let site: TinyServer;
  let browser: Browser;
  let scripts: Map<string, string>;

  beforeAll(async () => {
    // The production bundle: one file.
    const bundle = await bundleClient();
    scripts = new Map(bundle.outputFiles.map((file) => [`/${basename(file.path)}`, file.text]));
    // A page of a third-party site that uses the library; the cloud sends sign-ins back to it.
    site = await startTinyServer((request, response) => {
      const script = scripts.get(request.url ?? '');
      if (script !== undefined) {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        '<!doctype html><html lang="en"><title>Client test</title><script type="module">import * as Hearth from "/hearth-client.js"; window.Hearth = Hearth; window.ready = true;</script></html>',
      );
    });
    [world, browser] = await Promise.all([
      startWorld(),
      chromium.launch({
        executablePath: chromiumPath!,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      }),
    ]);
    seedDemoHub(world.hub.hub, { historyDays: 0 });
    await allowRedirect(world, SUPPORT_CLIENT, `${site.url}/support/`);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await world?.stop();
    await site?.close();
  });

  it('signs in on the cloud page (PKCE), takes the code from the address, and lists the hub’s devices live', {
    timeout: 90_000,
  }, async () => {
    const page = await browser.newPage();
    const config = { clientId: SUPPORT_CLIENT, redirectUrl: `${site.url}/support/`, baseUrl: world.cloudUrl };
    await page.goto(`${site.url}/support/`);
    await page.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);

    // The library sends the browser to the sign-in page.
    await page.evaluate(async (options) => {
      const { CloudAPI } = (globalThis as unknown as { Hearth: typeof import('./browser') }).Hearth;
      await new CloudAPI(options).login({ state: 'from-test', scopes: ['homey'] });
    }, config);
    await page.waitForURL(/\/cloud\/oauth2\/authorise\?/);
    const authorise = new URL(page.url());
    expect(authorise.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorise.searchParams.get('scope')).toBe('homey');
    // The person signs in on the cloud's page and is sent back with the code.
    await page.fill('#email', 'demo@hearth.test');
    await page.fill('#password', 'hearth-demo-password');
    await page.locator('form button[type="submit"], form input[type="submit"]').first().click();
    await page.waitForURL(new RegExp(`^${site.url}/support/\\?`));
    expect(new URL(page.url()).searchParams.get('state')).toBe('from-test');
    await page.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);

    // The realtime socket: Engine.IO v4 over the browser's own WebSocket, to the hub's socket.io endpoint.
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));

    const result = await page.evaluate(async (options) => {
      const { CloudAPI } = (globalThis as unknown as { Hearth: typeof import('./browser') }).Hearth;
      const cloud = new CloudAPI(options);
      const hadCode = cloud.hasAuthorizationCode();
      await cloud.authenticateWithAuthorizationCode();
      const page = globalThis as unknown as { location: { href: string }; localStorage: { getItem(key: string): string | null } };
      const addressAfter = page.location.href;
      const stored = JSON.parse(page.localStorage.getItem('homey-api') ?? '{}');
      const user = await cloud.getAuthenticatedUser();
      const hub = await user.getFirstHub().authenticate();
      await hub.devices.connect();
      const devices = Object.values(await hub.devices.getDevices());
      hub.destroy();
      return {
        hadCode,
        addressAfter,
        storedToken: typeof stored.token?.access_token === 'string',
        email: user.email,
        hubId: hub.id,
        strategy: hub.discovery?.strategy,
        devices: devices.length,
        onoff: devices.some((device) => (device as { capabilitiesObj?: Record<string, unknown> }).capabilitiesObj?.onoff),
      };
    }, config);
    expect(result).toMatchObject({
      hadCode: true,
      addressAfter: `${site.url}/support/`,
      storedToken: true,
      email: 'demo@hearth.test',
      hubId: HUB_ID,
      strategy: 'local',
      onoff: true,
    });
    expect(result.devices).toBeGreaterThan(0);
    expect(sockets).toEqual([`${world.hub.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`]);
    await page.close();
  });
});
