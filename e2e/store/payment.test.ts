import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { call, createUser, readJson, startTestCloud } from '../../packages/cloud/src/testing';
import { checkPage } from '../account/pages';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';

/**
 * Paying an order through the cloud's test payment provider in Chromium: the buyer opens the payment page the
 * order's payment points at, approves or declines it there, and the provider's signed webhook (sent by the cloud to
 * itself over HTTP) decides the order's status, which the account pages and the support form read.
 */
describe.skipIf(!chromiumPath)('store: paying on the test provider’s page', () => {
  let browser: Browser;
  let cloud: Cloud;
  let page: Page;
  let buyer = '';

  const api = async (method: string, path: string, body?: unknown) =>
    readJson(await call(cloud, method, `/store${path}`, buyer, body));
  /** An order of one Pro mini, and its payment started: answers the order and the page to pay it on. */
  const orderToPay = async () => {
    await api('POST', '/cart', { sku: 'hearth-pro-mini', quantity: 1, options: { plug: 'EU' } });
    const order = await api('POST', '/order', {});
    const { payment } = await api('POST', '/order/pay', { orderId: order.id });
    expect(payment).toMatchObject({ status: 'requires_action', test: true, amount: 19_900 });
    return { order, actionUrl: payment.actionUrl as string };
  };
  const statusOf = async (id: string) => (await api('GET', `/user/order/${id}`)).status;

  beforeAll(async () => {
    browser = await launchBrowser();
    const { cloud: port } = await freePorts();
    cloud = await startTestCloud('pglite', { port, publicUrl: `http://127.0.0.1:${port}` });
    buyer = (await createUser(cloud, 'buyer@example.test')).token;
    await api('PUT', '/userdata', {
      billing_firstname: 'Sam',
      billing_lastname: 'Jansen',
      billing_street: 'Dam',
      billing_number: '1',
      billing_zipcode: '1012 JS',
      billing_city: 'Amsterdam',
      billing_country: 'NL',
    });
    page = await (await browser.newContext({ viewport: { width: 390, height: 800 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await cloud?.stop();
  });

  it('approves a payment: the order is paid', async () => {
    const { order, actionUrl } = await orderToPay();
    await page.goto(actionUrl);
    await page.getByRole('heading', { level: 1, name: 'Pay €199.00' }).waitFor();
    await expect(page.getByRole('note').textContent()).resolves.toContain('Test payment provider');
    await expect(page.getByText(`Hearth order ${order.number}`).count()).resolves.toBe(1);
    await checkPage(page, 'store-test-payment');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment approved' }).waitFor();
    await checkPage(page, 'store-test-payment-approved');
    expect(await statusOf(order.id)).toBe('paid');
    const orders = await api('GET', '/user/order');
    expect(orders[0]).toMatchObject({ number: order.number, status: 'paid', total: 19_900 });
    // Back on the page (the browser's back button, a second tab): the buttons are gone and nothing moves again.
    await page.goto(actionUrl);
    await expect(page.getByRole('status').textContent()).resolves.toContain('This payment was approved');
    await expect(page.getByRole('button').count()).resolves.toBe(0);
  });

  it('declines a payment: the order waits for another, which can be approved', async () => {
    const { order, actionUrl } = await orderToPay();
    await page.goto(actionUrl);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment declined' }).waitFor();
    await checkPage(page, 'store-test-payment-declined');
    expect(await statusOf(order.id)).toBe('payment_failed');
    const { payment } = await api('POST', '/order/pay', { orderId: order.id });
    expect(payment.actionUrl).not.toBe(actionUrl);
    await page.goto(payment.actionUrl);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment approved' }).waitFor();
    expect(await statusOf(order.id)).toBe('paid');
  });
});
