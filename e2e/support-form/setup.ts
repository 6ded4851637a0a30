import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { SmtpSink } from '../../packages/cloud/src/services/mail/sink';
import { expectAccessible as expectAccessibleTo, launchBrowser } from '../browser';
import { LinkRelay } from '../relay';
import { freePorts, type RunningSystem, startSystem } from '../system';

// What the support form's end-to-end suites share: the real cloud, hubs, sign-in page and SMTP, and Chromium.

const INTERNAL_SECRET = 'e2e-internal-secret-0123456789abcdef';
export const DEMO = { email: 'demo@hearth.test', password: 'hearth-demo-password' };

export const step = (page: Page, name: string) => page.locator(`section[data-step="${name}"]`).last();
export const stepNames = (page: Page) =>
  page
    .locator('section[data-step]:not([data-step="placeholder"])')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-step')));

/** axe-core on the page as it is: no serious or critical violation, and no content outside every landmark. */
export const expectAccessible = (page: Page) => expectAccessibleTo(page, undefined, ['region']);

/** Presses Tab until the focused element's text or label matches, then Enter: the keyboard alone. */
export async function tabTo(page: Page, name: RegExp | string) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return (el?.getAttribute('aria-label') || el?.textContent || '').trim();
    });
    if (typeof name === 'string' ? focused === name : name.test(focused)) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`could not reach ${name} with Tab`);
}

/** Chooses an app on the Pro hub's apps step and answers the step it leads to. */
export async function chooseApp(page: Page, name: RegExp) {
  await page.getByRole('button', { name: /^Home/ }).click();
  await step(page, 'hubCategoryPro').getByRole('button', { name: 'Apps', exact: true }).click();
  await step(page, 'apps').getByRole('button', { name }).click();
}

/**
 * The apps and devices the apps, devices and developer tests need on the Pro hub ("Home"), installed from the
 * hub's app store and paired through its API when the demo seed did not already do so.
 */
async function prepareHomeHub(system: RunningSystem) {
  const hub = system.hubs.find((h) => h.name === 'Home');
  if (!hub) throw new Error('no Home hub');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${hub.url}/api/manager${path}`, {
      method,
      headers: { authorization: `Bearer ${hub.ownerToken}`, 'content-type': 'application/json', 'x-homey-id': hub.id },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const apps = ['com.lumenco.lights', 'com.guardian.security', 'com.nordheat.climate', 'com.wattwise.meter'];
  apps.push('com.openweather.station', 'com.soundwave.speakers', 'net.tinker.blinds', 'com.hearth.chime');
  for (const id of apps) {
    if ((await call('GET', `/apps/app/${id}`)).status === 200) continue;
    const installed = await call('POST', '/apps/store', { id, channel: 'stable', waitForInstall: true });
    expect(installed.status, id).toBe(200);
  }
  // One app stays a version behind the catalogue's live one, with automatic updates off.
  const lumen = await call<{ version: string }>('GET', '/apps/app/com.lumenco.lights');
  if (lumen.body.version !== '3.2.1') {
    const pinned = await call('POST', '/apps/store', {
      id: 'com.lumenco.lights',
      channel: 'stable',
      version: '3.2.1',
      waitForInstall: true,
    });
    expect(pinned.status).toBe(200);
  }
  await call('PUT', '/apps/app/com.lumenco.lights', { autoupdate: false });
  const devices = Object.values((await call<Record<string, { driverId: string }>>('GET', '/devices/device')).body ?? {});
  for (const driverId of [
    'homey:app:com.nordheat.climate:thermostat',
    'homey:app:com.guardian.security:motion-sensor',
    'homey:app:com.soundwave.speakers:speaker',
  ]) {
    if (devices.some((d) => d.driverId === driverId)) continue;
    const session = await call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId });
    expect(session.status, driverId).toBe(200);
    const found = await call<unknown>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'list_devices' });
    const candidate = Array.isArray(found.body) ? found.body[0] : found.body;
    expect((await call('POST', `/drivers/pairsession/${session.body.id}/device`, candidate)).status, driverId).toBe(200);
    await call('DELETE', `/drivers/pairsession/${session.body.id}`);
  }
}

/** A suite's running system, browser and mail, set before its first test, and what its tests do with them. */
export interface SupportForm {
  system: RunningSystem;
  browser: Browser;
  /** The browser context signed in to the form. */
  context: BrowserContext;
  sink: SmtpSink;
  smtp: { host: string; port: number };
  /** The link between the hubs and the cloud, which a test may cut. */
  link: LinkRelay;
  internalToken(): Promise<string>;
  openForm(): Promise<Page>;
  signedInContext(target: Browser, options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>;
}

/**
 * Starts the system with the Pro hub prepared and signs the form in once before the suite's tests; stops it all after
 * them.
 */
export function useSupportForm(): SupportForm {
  const form = { sink: new SmtpSink(), link: new LinkRelay({ host: '127.0.0.1', port: 0 }) } as SupportForm;
  const { sink, link } = form;
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let smtp: SupportForm['smtp'];

  const internalToken = async () => {
    const response = await fetch(`${system.cloudUrl}/cloud/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`hearth-internal:${INTERNAL_SECRET}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };

  /** A page of the signed-in form, showing its first step. */
  async function openForm(): Promise<Page> {
    const page = await context.newPage();
    // The form logs what it could not gather (apps, articles, updates): show it next to a failing step.
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error')
        console.log(`[browser ${message.type()}] ${message.text()}`);
    });
    await page.goto(`${system.cloudUrl}/support/`);
    await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor({ timeout: 30_000 });
    return page;
  }

  /** A new browser context signed in like the main one (the form keeps its token in local storage). */
  async function signedInContext(target: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
    const state = await context.storageState();
    const items = state.origins.find((o) => system.cloudUrl.startsWith(o.origin))?.localStorage ?? [];
    const created = await target.newContext(options);
    await created.addInitScript((entries: { name: string; value: string }[]) => {
      for (const { name, value } of entries) if (!localStorage.getItem(name)) localStorage.setItem(name, value);
    }, items);
    return created;
  }

  beforeAll(async () => {
    smtp = await sink.start();
    // The hubs reach the cloud through a relay the e-mail-developer test takes down.
    const hubCloudUrl = await link.start();
    const ports = await freePorts();
    link.target.port = ports.cloud;
    [system, browser] = await Promise.all([
      startSystem({
        CLOUD_PORT: String(ports.cloud),
        HUB_PORT_BASE: String(ports.hubBase),
        MQTT_DEMO_PORT: String(ports.mqtt),
        HUB_CLOUD_URL: hubCloudUrl,
        SMTP_URL: `smtp://${smtp.host}:${smtp.port}`,
        HEARTH_INTERNAL_CLIENT_SECRET: INTERNAL_SECRET,
      }),
      launchBrowser(),
    ]);
    await prepareHomeHub(system);
    context = await browser.newContext();
    // Sign in once through the cloud's authorise page (authorization code with PKCE); the token stays in storage.
    const page = await context.newPage();
    await page.goto(`${system.cloudUrl}/support/`);
    await page.getByRole('heading', { name: 'How can we help?' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Please sign in so we can help you best.').count()).toBe(1);
    expect(await page.getByRole('link', { name: "Can't sign in?" }).getAttribute('href')).toContain(
      '/api/helpdesk/articles/cant-sign-in',
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor({ timeout: 30_000 });
    expect(page.url()).not.toContain('code=');
    await page.close();
    Object.assign(form, { system, browser, context, smtp });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
    await link.stop();
    await sink.stop();
  });
  return Object.assign(form, { internalToken, openForm, signedInContext });
}
