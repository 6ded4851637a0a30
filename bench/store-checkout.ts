// Issue 23 benchmark: 200 buyers check out at once against a real cloud — each fills a cart (an energy dongle and a
// month of Hearth Plus), enters an address, makes the order, calls pay twice at once, approves on the test payment
// provider's page (whose signed webhook the cloud sends itself), and the provider then redelivers that webhook under
// a new event id. Goal: zero errors, zero double fulfilments (one payment per order, stock down by exactly 200, one
// month of Plus per buyer). On PGlite, and on PostgreSQL when DATABASE_URL is set.
// Run: taskset -c 1 npx tsx bench/store-checkout.ts

import { fetchFrom } from '@hearth/contract/testing';
import { providerPaymentId, sendWebhook } from '../packages/cloud/src/services/store/test-helpers';
import { startBenchCloud } from './lib/bench-cloud';
import { fmt, line, percentile } from './lib/report';

const BUYERS = Number(process.env.BENCH_BUYERS ?? 200);
const INTERNAL_SECRET = 'bench-internal-secret-0123456789';
const DEMO_HUB = { id: '5ea7c0de00000000000000a1', name: 'Home', model: 'hearth-pro-5q', url: 'http://127.0.0.1:4100' };

const backends = [{ name: 'PGlite', url: null as string | null }];
if (process.env.DATABASE_URL) backends.push({ name: 'PostgreSQL', url: process.env.DATABASE_URL });
else console.log('(PostgreSQL skipped: DATABASE_URL is not set)');

async function token(url: string, fields: Record<string, string>, client: string, from = '127.0.0.1'): Promise<string> {
  // Each buyer signs in from a loopback address of its own: the token endpoint limits sign-ins per address.
  const response = await fetchFrom(from)(`${url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(client).toString('base64')}`,
    },
    body: new URLSearchParams(fields).toString(),
  });
  const answer = (await response.json()) as { access_token?: string };
  if (!answer.access_token) throw new Error(`no token: ${JSON.stringify(answer)}`);
  return answer.access_token;
}

console.log(`Store checkout: ${BUYERS} buyers at once (cart, address, order, pay ×2, approve, redelivered webhook)`);
for (const backend of backends) {
  const { cloud, drop } = await startBenchCloud({
    databaseUrl: backend.url,
    demoHubs: [DEMO_HUB],
    internalClientSecret: INTERNAL_SECRET,
  });
  const { db } = cloud.context.database;
  const internal = await token(cloud.url, { grant_type: 'client_credentials' }, `hearth-internal:${INTERNAL_SECRET}`);
  const errors: string[] = [];
  const api = async (bearer: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${cloud.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) errors.push(`${method} ${path}: ${response.status} ${text.slice(0, 120)}`);
    return text ? JSON.parse(text) : null;
  };

  // The buyers, made a few at a time (each password is hashed).
  const buyers: string[] = [];
  for (let i = 0; i < BUYERS; i += 20)
    buyers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, BUYERS - i) }, async (_, j) => {
          const email = `buyer-${i + j}@bench.test`;
          await api(internal, 'POST', '/cloud/user', { user: { email, password: 'bench-buyer-password-1', firstname: 'Bench' } });
          return token(
            cloud.url,
            { grant_type: 'password', username: email, password: 'bench-buyer-password-1' },
            'hearth-demo:hearth-demo-secret',
            `127.0.${1 + Math.floor((i + j) / 200)}.${1 + ((i + j) % 200)}`,
          );
        }),
      )),
    );
  const stockBefore = (
    await db.selectFrom('store_products').select('stock').where('sku', '=', 'hearth-energy-dongle').executeTakeFirstOrThrow()
  ).stock as number;

  const durations: number[] = [];
  const began = performance.now();
  const paymentIds = await Promise.all(
    buyers.map(async (buyer, index) => {
      const start = performance.now();
      await api(buyer, 'PUT', '/store/userdata', {
        billing_firstname: 'Bench',
        billing_lastname: `Buyer ${index}`,
        billing_street: 'Dam',
        billing_number: String(index + 1),
        billing_zipcode: '1012 JS',
        billing_city: 'Amsterdam',
        billing_country: 'NL',
      });
      await api(buyer, 'PUT', '/store/cart', {
        items: [
          { sku: 'hearth-energy-dongle', quantity: 1 },
          { sku: 'homey_plus_1m', quantity: 1 },
        ],
      });
      const order = await api(buyer, 'POST', '/store/order', {});
      const [first, second] = await Promise.all([
        api(buyer, 'POST', '/store/order/pay', { orderId: order?.id }),
        api(buyer, 'POST', '/store/order/pay', { orderId: order?.id }),
      ]);
      if (first?.payment?.id !== second?.payment?.id) errors.push(`order ${order?.number}: two payments`);
      const page = await fetch(`${cloud.url}${new URL(first.payment.actionUrl).pathname}/approve`, { method: 'POST' });
      if (!page.ok) errors.push(`approve: ${page.status}`);
      durations.push(performance.now() - start);
      return first.payment as { id: string; amount: number };
    }),
  );
  const seconds = (performance.now() - began) / 1000;

  // The provider redelivers every succeeded event under a new id, all at once.
  const redelivered = await Promise.all(
    paymentIds.map(async (payment, index) =>
      sendWebhook(cloud, {
        id: `evt_bench_retry_${index}`,
        data: { id: await providerPaymentId(cloud, payment.id), status: 'succeeded', amount: payment.amount, currency: 'EUR' },
      }),
    ),
  );
  const applied = redelivered.filter((answer) => answer.body.outcome === 'applied').length;

  const paid = await db.selectFrom('orders').select(['id', 'status']).where('number', 'like', '2%').execute();
  const payments = await db.selectFrom('store_payments').select(['order_id', 'status']).execute();
  const charges = await db.selectFrom('store_test_payments').select('id').where('status', '=', 'succeeded').execute();
  const subscriptions = await db
    .selectFrom('subscriptions')
    .select(['user_id', 'expires_at'])
    .where('type', '=', 'homey_plus')
    .execute();
  const stockAfter = (
    await db.selectFrom('store_products').select('stock').where('sku', '=', 'hearth-energy-dongle').executeTakeFirstOrThrow()
  ).stock as number;
  const perUser = new Map<string, number>();
  for (const s of subscriptions) perUser.set(s.user_id, (perUser.get(s.user_id) ?? 0) + 1);
  const longest = Math.max(
    ...subscriptions.filter((s) => s.expires_at).map((s) => (s.expires_at as Date).getTime() - Date.now()),
  );
  const doubles =
    payments.length -
    BUYERS +
    (charges.length - BUYERS) +
    Math.abs(stockBefore - stockAfter - BUYERS) +
    [...perUser.values()].filter((count) => count > 1).length +
    (longest > 32 * 86_400_000 ? 1 : 0) +
    applied;
  const paidCount = paid.filter((o) => o.status === 'paid').length;
  if (paidCount !== BUYERS) errors.push(`${BUYERS - paidCount} orders not paid`);
  const sorted = [...durations].sort((a, b) => a - b);

  line(`${backend.name}: checkouts`, `${BUYERS} in ${fmt(seconds)} s  (${fmt(BUYERS / seconds)} /s)`);
  line(
    `${backend.name}: one checkout, end to end`,
    `p50 ${fmt(percentile(sorted, 50), 0)} ms  p99 ${fmt(percentile(sorted, 99), 0)} ms`,
  );
  line(`${backend.name}: orders paid`, `${paidCount} of ${paid.length}`);
  line(
    `${backend.name}: payments / charges / stock taken`,
    `${payments.length} / ${charges.length} / ${stockBefore - stockAfter}`,
  );
  line(`${backend.name}: holders of Plus (+ the demo user) / redeliveries applied`, `${perUser.size} / ${applied}`);
  line(`${backend.name}: errors`, String(errors.length), { text: '0', met: errors.length === 0 });
  line(`${backend.name}: double fulfilments`, String(doubles), { text: '0', met: doubles === 0 });
  for (const error of errors.slice(0, 5)) console.log(`    ${error}`);
  await drop();
  await cloud.stop();
}
