import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { call, createUser, pkcePair, startTestCloud } from '../../packages/cloud/src/testing';
import { startFreshHub } from '../account/hub';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildHomeApp, expectPhoneFirst } from './setup';

/**
 * Sign-in through the cloud, as the issue asks: a real cloud, a real hub process registered with it and claimed by
 * its owner, and the web app that hub serves. The app goes to the cloud's sign-in page (authorization code with
 * PKCE), comes back to the hub, trades a delegation token for the hub's own session, and keeps only that.
 */
describe.skipIf(!chromiumPath)('household web app: sign in through the cloud', () => {
  let browser: Browser;
  let cloud: Cloud;
  let hub: Awaited<ReturnType<typeof startFreshHub>>;
  let hubUrl: string;
  const owner = { email: 'olive.owner@example.test', password: 'lantern-meadow-quartz-41' };
  const stranger = { email: 'sam.stranger@example.test', password: 'harbour-violet-ember-73' };

  beforeAll(async () => {
    buildHomeApp();
    browser = await launchBrowser();
    const ports = await freePorts();
    const url = `http://127.0.0.1:${ports.cloud}`;
    cloud = await startTestCloud('pglite', { port: ports.cloud, publicUrl: url });
    hub = await startFreshHub(url, ports.hubBase);
    hubUrl = `http://127.0.0.1:${ports.hubBase}`;
    const account = await createUser(cloud, owner.email, owner.password);
    await createUser(cloud, stranger.email, stranger.password);
    expect((await call(cloud, 'POST', '/cloud/homey/claim', account.token, { code: hub.code })).status).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.stop();
    await cloud?.stop();
  });

  async function signInThroughCloud(page: Page, person: { email: string; password: string }) {
    await page.goto(`${hubUrl}/`);
    await page.getByRole('button', { name: 'Sign in with your Hearth account' }).click();
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('signs the owner in to the hub with their Hearth account, keeping only the hub’s session', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`[browser] ${error.stack ?? error.message}`));
    await page.goto(`${hubUrl}/`);
    await page.getByRole('button', { name: 'Sign in with your Hearth account' }).waitFor();
    await expectPhoneFirst(page, 'cloud-sign-in');

    await signInThroughCloud(page, owner);
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: 20_000 });
    // Nothing of the trip is left in the address, and the cloud's token is not kept.
    expect(new URL(page.url()).search).toBe('');
    const stored = await page.evaluate(() => ({ ...localStorage }));
    // Beside the hub's session, only the person's hubs for the switcher: names and ids, no credential.
    expect(Object.keys(stored).sort()).toEqual(['hearth-home:hubs', 'hearth-home:token']);
    expect(JSON.parse(stored['hearth-home:hubs'] as string)).toEqual({
      cloud: new URL(cloud.url).origin,
      hubs: [{ id: expect.any(String), name: 'Fresh hub' }],
    });
    // The token is a session of the hub's owner.
    const me = await (
      await fetch(`${hubUrl}/api/manager/users/user/me`, {
        headers: { authorization: `Bearer ${stored['hearth-home:token']}` },
      })
    ).json();
    expect(me).toMatchObject({ role: 'owner' });

    // Signed out, the cloud's sign-in cookie brings the person straight back in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with your Hearth account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('sends no code to a hub that is not the person’s: the cloud says so, and the hub stays signed out', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await signInThroughCloud(page, stranger);
    await page
      .getByText('This sign-in came from an address of a Hearth hub that is not one of yours')
      .waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).origin).toBe(new URL(cloud.url).origin);
    await page.goto(`${hubUrl}/`);
    expect(await page.evaluate(() => localStorage.getItem('hearth-home:token'))).toBeNull();
    await page.getByRole('button', { name: 'Sign in with your Hearth account' }).waitFor();
    await context.close();
  });

  it('is sent back only to the root of a hub registered with the cloud', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const ask = async (redirect: string) => {
      const query = new URLSearchParams({
        client_id: 'hearth-home',
        redirect_uri: redirect,
        response_type: 'code',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
      await page.goto(`${cloud.url}/cloud/oauth2/authorise?${query}`);
      return page.getByText('The address to return to is not registered for this application.').count();
    };
    expect(await ask(`${hubUrl}/`)).toBe(0);
    expect(await ask('http://127.0.0.1:9/')).toBe(1);
    expect(await ask(`${hubUrl}/elsewhere`)).toBe(1);
    await context.close();
  });
});
