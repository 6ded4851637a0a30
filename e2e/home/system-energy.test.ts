import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, openByNav, pageWithScopes, signedInHomeApp } from './setup';

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT_BG = 'rgb(250, 250, 249)';
const DARK_BG = 'rgb(17, 24, 39)';

/** The System and Energy pages and the theme, against a real hub in Chromium. */
describe.skipIf(!chromiumPath)('household web app: system, energy and theme', () => {
  const app = signedInHomeApp();
  const option = async (manager: 'i18n' | 'updates' | 'backup', name: string) =>
    (
      (await (app().api.manager(manager) as unknown as Record<string, () => Promise<{ value: unknown }>>)[
        `getOption${name}`
      ]()) as {
        value: unknown;
      }
    ).value;

  it('renames the hub, sets language and units, backs up, and restarts only after asking', async () => {
    const { page, api } = app();
    await openByNav(page, 'System');
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('The hub needs a name.').waitFor();
    await name.fill('Cottage hub');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => api.system.getSystemName()).toBe('Cottage hub');

    await page.getByLabel('Units').selectOption('imperial');
    await expect.poll(() => option('i18n', 'Units')).toBe('imperial');
    await page.getByLabel('Language', { exact: true }).selectOption('nl');
    await expect.poll(() => option('i18n', 'Language')).toBe('nl');
    // Changed elsewhere, the page follows (the i18n manager's option.update).
    await api.i18n.setOptionLanguage({ value: 'en' });
    await expect.poll(() => page.getByLabel('Language', { exact: true }).inputValue()).toBe('en');

    await page.getByText('The hub is up to date.').waitFor();
    const auto = page.getByRole('switch', { name: 'Install updates automatically' });
    const before = await option('updates', 'Autoupdate');
    await auto.click();
    await expect.poll(() => option('updates', 'Autoupdate')).toBe(!before);

    // The plan the owner's subscriptions give this hub, as its system facts say.
    const info = (await api.system.getInfo()) as { tier: string; cloudBackups: boolean };
    const plan = await page.getByText(/^Plan: /).textContent();
    expect(plan).toContain({ free: 'Free', plus: 'Hearth Plus', premium: 'Hearth Premium' }[info.tier] ?? info.tier);
    expect(plan).toContain(info.cloudBackups ? 'Backups are also kept in the cloud.' : 'Backups are kept on this hub only');
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByText(/Backed up \(\d+ kB\)/).waitFor({ timeout: 30_000 });
    expect(await option('backup', 'LastSuccessfulBackup')).toEqual(expect.any(String));

    await page.getByRole('button', { name: 'Restart the hub' }).click();
    await expectPhoneFirst(page, 'system');
    await page.getByRole('button', { name: 'Keep it running' }).click();
    expect((await api.system.getState()) as { status: string }).toMatchObject({ status: 'running' });
    await page.getByRole('button', { name: 'Restart the hub' }).click();
    await page.getByRole('button', { name: 'Restart now' }).click();
    await page.getByRole('status').getByText('The hub is restarting…').waitFor();
    expect((await api.system.getState()) as { status: string }).toMatchObject({ status: 'rebooting' });
  });

  it('switches between light and dark, keeps the choice in this browser, and follows the system by default', async () => {
    const { page, browser, hub } = app();
    await openByNav(page, 'System');
    expect(await background(page)).toBe(LIGHT_BG);
    await page.getByLabel('Dark').check();
    expect(await background(page)).toBe(DARK_BG);
    await expectPhoneFirst(page, 'system-dark');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'System' }).waitFor();
    expect(await background(page)).toBe(DARK_BG);
    await page.getByLabel('As the system').check();
    expect(await background(page)).toBe(LIGHT_BG);

    // Another browser whose system prefers dark gets dark without choosing.
    const night = await browser.newContext({ colorScheme: 'dark' });
    const other = await night.newPage();
    await other.goto(`${hub.url}/`);
    await other.getByRole('heading', { level: 1, name: 'Sign in to your hub' }).waitFor();
    expect(await background(other)).toBe(DARK_BG);
    await night.close();
  });

  it('puts a refused change back with the hub’s reason', async () => {
    const { page: viewer, close } = await pageWithScopes(app(), ['homey.system.readonly', 'homey.updates.readonly']);
    await openByNav(viewer, 'System');
    const units = viewer.getByLabel('Units');
    await expect.poll(() => units.inputValue()).toBe('imperial');
    await units.selectOption('metric');
    await expect.poll(() => units.getAttribute('aria-invalid')).toBe('true');
    expect(await units.inputValue()).toBe('imperial');
    expect(await option('i18n', 'Units')).toBe('imperial');
    await close();
  });

  it('shows live power that follows the devices, and reports by period with the chart loaded on demand', async () => {
    const { page, api } = app();
    const chunks: string[] = [];
    const order: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('.js')) chunks.push(request.url());
    });
    // The reports' days are the hub's: no report is asked for before the hub has said its time zone (asked with the
    // browser's "today" first, a report could load twice, once for the wrong period).
    page.on('websocket', (socket) => {
      socket.on('framesent', (frame) => order.push(`> ${String(frame.payload).slice(0, 200)}`));
      socket.on('framereceived', (frame) => order.push(`< ${String(frame.payload).slice(0, 20)}`));
    });
    await page.goto(`${app().hub.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    // The first load fetched nothing of the charts.
    expect(chunks.some((url) => url.includes('EnergyChart') || url.includes('uPlot'))).toBe(false);
    order.length = 0;
    await openByNav(page, 'Energy');
    // One figure for now: the home's meter where it has one, else the devices added up, and the page says which.
    type Live = {
      W: number;
      items: { id: string; values: { W: number } }[];
      cumulative: { W: number; items: { name: string }[] };
    };
    const live = async () => (await api.energy.getLiveReport({})) as unknown as Live;
    const shown = (W: number) => `${Math.round(W).toLocaleString('en-US')} W`;
    const now = async () => {
      const report = await live();
      return report.cumulative.items.length > 0 ? report.cumulative.W : report.W;
    };
    await expect.poll(async () => page.getByText(`Using ${shown(await now())} now`).count()).toBe(1);
    const meters = (await live()).cumulative.items.map((meter) => meter.name);
    expect(meters.length).toBeGreaterThan(0);
    expect(await page.getByTestId('energy-now-source').textContent()).toBe(`Measured by ${meters.join(', ')}.`);
    // Each device's own figure follows it.
    const coffee = await app().deviceId('Coffee machine');
    const on = ((await api.devices.getDevice({ id: coffee })) as unknown as { capabilitiesObj: { onoff: { value: boolean } } })
      .capabilitiesObj.onoff.value;
    await api.devices.setCapabilityValue({ deviceId: coffee, capabilityId: 'onoff', value: !on });
    const coffeeRow = page.locator('.row', { hasText: 'Coffee machine' }).first();
    await expect
      .poll(
        async () => {
          const W = (await live()).items.find((item) => item.id === coffee)?.values.W ?? 0;
          return (await coffeeRow.textContent())?.includes(shown(W));
        },
        { timeout: 10_000 },
      )
      .toBe(true);

    await page.getByText(/kWh used, costing/).waitFor();
    // The socket's frames in order: a call is `42/api,<id>["api",{…"operation":…}]`, its answer `43/api,<id>[…]`.
    const zoneCall = /^> 42\/api,(\d+)\[.*"getOptionTimezone"/.exec(
      order.find((f) => f.includes('"getOptionTimezone"')) ?? '',
    )?.[1];
    const zoneAnswered = order.findIndex((frame) => frame.startsWith(`< 43/api,${zoneCall}[`));
    const reportCalls = order.flatMap((frame, index) => (/^> .*"operation":"getReport/.test(frame) ? [index] : []));
    expect(zoneAnswered).toBeGreaterThan(-1);
    expect(reportCalls).toHaveLength(1);
    expect(reportCalls[0]).toBeGreaterThan(zoneAnswered);
    // The week by its days ("Nov 23 – 29, 2026"), not its ISO number; the chart's legend names its unit.
    const periodName = page.locator('.period-nav strong');
    expect(await periodName.textContent()).toMatch(/^[^W]*\d{1,2}\s?–\s?.*\d{4}$/);
    // The chart shows a period's parts: a week that has only begun (a Monday) has one, and no chart. The week before
    // has all seven days of the demo's history, whatever day the suite runs on.
    await page.getByRole('button', { name: 'Earlier' }).click();
    await page.getByRole('img', { name: /Energy used per part of the week/ }).waitFor({ timeout: 15_000 });
    expect(chunks.some((url) => url.includes('EnergyChart'))).toBe(true);
    expect(await page.locator('.u-legend').textContent()).toContain('Energy used (kWh)');
    await expectPhoneFirst(page, 'energy');

    // The month of that week (on the 1st, this month would have one day so far), which holds the demo's history.
    await page.getByLabel('Period').selectOption('month');
    expect(await periodName.textContent()).toMatch(/^[A-Z][a-z]+ \d{4}$/);
    await page.getByRole('img', { name: /Energy used per part of the month/ }).waitFor();
    await page.getByRole('button', { name: 'Earlier' }).click();
    await page.getByRole('button', { name: 'Later' }).click();
    await page.getByText(/kWh used, costing/).waitFor();
    // Later goes no further than this month.
    const later = page.getByRole('button', { name: 'Later' });
    for (let step = 0; step < 2 && !(await later.isDisabled()); step++) await later.click();
    expect(await later.isDisabled()).toBe(true);
  });
});
