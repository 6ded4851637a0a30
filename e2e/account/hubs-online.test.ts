import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { call, createUser, readJson, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { startFreshHub } from './hub';
import { buildAccountPages, checkPage } from './pages';

/**
 * A real hub claimed by the person: the hubs page shows it online while its tunnel to the cloud is up, and offline
 * once the hub stops, without the page being reloaded (it reads the cloud's tunnel directory every few seconds);
 * then it is renamed and removed.
 */
describe.skipIf(!chromiumPath)('hub online state on the hubs pages', () => {
  let browser: Browser;
  let cloud: Cloud;
  let hub: Awaited<ReturnType<typeof startFreshHub>>;
  let context: BrowserContext;
  let page: Page;
  const person = { email: 'harper.hubs@example.test', password: 'copper-atlas-juniper-26' };
  let owner: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    buildAccountPages();
    browser = await launchBrowser();
    const ports = await freePorts();
    const url = `http://127.0.0.1:${ports.cloud}`;
    cloud = await startTestCloud('pglite', { port: ports.cloud, publicUrl: url });
    hub = await startFreshHub(url, ports.hubBase);
    owner = await createUser(cloud, person.email, person.password);
    const claimed = await call(cloud, 'POST', '/cloud/homey/claim', owner.token, { code: hub.code });
    expect(claimed.status).toBe(200);
    context = await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await hub?.stop();
    await cloud?.stop();
  });

  it('answers only the caller’s own hubs', async () => {
    const stranger = await createUser(cloud, 'sid.stranger@example.test');
    expect(await readJson(await call(cloud, 'GET', '/connect/user/me/homeys', stranger.token))).toEqual([]);
    expect((await call(cloud, 'GET', '/connect/user/me/homeys', '')).status).toBe(401);
  });

  it('shows the hub online, then offline when it stops, without a reload', async () => {
    await page.goto(`${cloud.url}/hubs`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Hubs' }).waitFor();
    const tile = page.getByRole('list', { name: 'Your hubs' }).getByRole('listitem').filter({ hasText: 'Fresh hub' });
    // The hub opens its tunnel a moment after registering: the page follows it there.
    await tile.getByText('Online').waitFor({ timeout: 60_000 });
    await checkPage(page, 'hubs-online');
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });

    await hub.stop();
    await tile.getByText('Offline').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await tile.getByRole('link', { name: 'Fresh hub', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Fresh hub' }).waitFor();
    await page.getByText('Offline').waitFor();
    await checkPage(page, 'hub-offline');
  });

  it('renames the hub, hands it over to a member, and removes it after asking once more', async () => {
    await page.getByLabel('Hub name').fill('Kitchen hub');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('The hub is renamed.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Kitchen hub' }).waitFor();

    // A member (invited and accepted by the cloud's calls) takes the hub over; the person stays on as a manager.
    const member = await createUser(cloud, 'morgan.member@example.test');
    const homeyId = new URL(page.url()).pathname.split('/').pop() as string;
    const invited = await call(cloud, 'POST', `/cloud/homey/${homeyId}/invite`, owner.token, {
      email: 'morgan.member@example.test',
      role: 'user',
    });
    expect(invited.status).toBe(201);
    const sink = cloud.context.mail.sink as NonNullable<typeof cloud.context.mail.sink>;
    const mail = await sink.waitFor((m) => m.to.includes('morgan.member@example.test') && m.subject.includes('invites you'));
    const token = /#token=(\S+)/.exec(mail.text)?.[1] as string;
    const accepted = await call(cloud, 'POST', `/cloud/user/${member.id}/accept_invite/${owner.id}`, member.token, { token });
    expect(accepted.status).toBeLessThan(300);
    await page.reload();
    await page.getByLabel('New owner').selectOption({ label: 'Test morgan.member' });
    await page.getByRole('button', { name: 'Hand over this hub…' }).click();
    await checkPage(page, 'hub-transfer-confirm');
    await page.getByRole('button', { name: 'Hand over this hub', exact: true }).click();
    // "Your role" says it (role pickers' options say "Manager" too while the page still shows the owner's view).
    await page.getByRole('definition').getByText('Manager', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Remove this hub…' }).count()).toBe(0);
    // Handed back by the new owner, the hub can be removed by the person again.
    const back = await call(cloud, 'POST', `/cloud/homey/${homeyId}/transfer`, member.token, { userId: owner.id });
    expect(back.status).toBeLessThan(300);
    await page.reload();

    await page.getByRole('button', { name: 'Remove this hub…' }).click();
    await page.getByRole('group', { name: /The hub is released/ }).waitFor();
    await checkPage(page, 'hub-remove-confirm');
    await page.getByRole('button', { name: 'Remove this hub', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Hubs' }).waitFor();
    await page.getByText('You have no hubs yet.').waitFor();
  });
});
