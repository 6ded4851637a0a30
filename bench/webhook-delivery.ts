// Issue 20 benchmark: latency of a webhook call at the cloud until the hub has it on its domain bus. The cloud
// matches the call against the hubs registered for the webhook, records the delivery and POSTs it, signed, to the
// hub, which checks the signature, records the delivery id durably (a duplicate is not acted on twice) and emits
// `cloud.webhook`. The baseline, in the same process and run: the same signed delivery POSTed straight to the hub,
// which does the same durable work and emits the same event — what the cloud's hop adds is the difference.
// Run: npx tsx bench/webhook-delivery.ts  (BENCH_COUNT calls each, BENCH_DATABASE_URL for PostgreSQL instead of PGlite,
// BENCH_RELAY=1 to deliver through the hub's relay tunnel)
import { randomBytes } from 'node:crypto';
import { HUB_LOGIC_WEBHOOK_ID, WEBHOOK_SIGNATURE_HEADER } from '@hearth/contract';
import { hubSecret, signWebhookDelivery } from '@hearth/contract/hub-secret';
import { startBenchCloud } from './lib/bench-cloud';
import { startBenchHub } from './lib/bench-hub';
import { fmt, line, percentile } from './lib/report';

const count = Number(process.env.BENCH_COUNT ?? 300);
const databaseUrl = process.env.BENCH_DATABASE_URL || null;
const SECRET = 'bench-webhook-internal-secret';
const hubId = randomBytes(12).toString('hex');

const { cloud, drop } = await startBenchCloud({ databaseUrl, internalClientSecret: SECRET });
// With BENCH_RELAY=1 the hub keeps its relay tunnel and the cloud delivers through it; else to its local address.
const relay = process.env.BENCH_RELAY === '1';
const { hub } = await startBenchHub(hubId, {
  cloudUrl: cloud.url,
  cloudClientSecret: SECRET,
  ...(relay ? {} : { relay: false }),
});
if (!(await hub.cloudRegistration)) throw new Error('the hub did not register with the cloud');
if (relay) await (await hub.tunnel)?.whenConnected();

// The hub's own webhook address at the cloud (the logic manager's), as its owner asks for it.
const registered = await fetch(`${hub.url}/api/manager/logic/cloudwebhook`, {
  method: 'PUT',
  headers: { authorization: `Bearer ${hub.issueOwnerToken()}`, 'content-type': 'application/json' },
  body: '{}',
});
const { url: webhookUrl } = (await registered.json()) as { url: string };
if (!registered.ok || !webhookUrl) throw new Error(`no webhook address: ${registered.status}`);
const key = new URL(webhookUrl).searchParams.get('key') as string;

// Each call carries its tag; the bus event with that tag ends its measure.
const waiting = new Map<string, () => void>();
hub.context.bus.on('cloud.webhook', 'bench', ({ query }) => waiting.get(query.tag ?? '')?.());
const arrival = (tag: string) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`delivery ${tag} did not arrive in 30 s`)), 30_000);
    waiting.set(tag, () => {
      clearTimeout(timer);
      waiting.delete(tag);
      resolve();
    });
  });

/** Through the cloud: the webhook's public address, as an outside service calls it. */
async function viaCloud(tag: string) {
  const arrived = arrival(tag);
  const started = performance.now();
  const answer = await fetch(`${webhookUrl}&event=bench&tag=${tag}`);
  if (answer.status !== 202) throw new Error(`the cloud answered ${answer.status}`);
  await answer.arrayBuffer();
  await arrived;
  return performance.now() - started;
}

/** Baseline: the same delivery, signed as the cloud signs it, POSTed straight to the hub. */
async function direct(tag: string) {
  const arrived = arrival(tag);
  const started = performance.now();
  const delivery = JSON.stringify({
    id: randomBytes(12).toString('hex'),
    webhookId: HUB_LOGIC_WEBHOOK_ID,
    homeyId: hubId,
    data: { $key: key },
    query: { key, event: 'bench', tag },
    body: null,
    headers: {},
    receivedAt: new Date().toISOString(),
  });
  const signature = signWebhookDelivery(hubSecret(SECRET, hubId), delivery, Math.floor(Date.now() / 1000));
  const answer = await fetch(`${hub.url}/api/manager/cloud/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
    body: JSON.stringify({ delivery }),
  });
  if (!answer.ok) throw new Error(`the hub answered ${answer.status}`);
  await answer.arrayBuffer();
  await arrived;
  return performance.now() - started;
}

async function measure(run: (tag: string) => Promise<number>, name: string, n: number) {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) times.push(await run(`${name}-${i}-${randomBytes(3).toString('hex')}`));
  return times;
}

console.log(
  `Webhook call → hub's bus (cloud.webhook), ${count} calls each one after another, cloud on ${cloud.context.database.kind}, delivered ${relay ? 'through the relay tunnel' : 'to the hub’s address'}`,
);
// Warm up both paths (JIT, connection pools, prepared statements) before measuring.
await measure(viaCloud, 'warm-cloud', 20);
await measure(direct, 'warm-direct', 20);
// Halves interleaved, so a slower stretch of the machine weighs on both paths alike.
const cloudTimes: number[] = [];
const directTimes: number[] = [];
for (const half of [1, 2]) {
  cloudTimes.push(...(await measure(viaCloud, `cloud${half}`, Math.ceil(count / 2))));
  directTimes.push(...(await measure(direct, `direct${half}`, Math.ceil(count / 2))));
}

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((sum, t) => sum + t, 0) / sorted.length,
  };
};
const via = summary(cloudTimes);
const bare = summary(directTimes);
const figures = (s: ReturnType<typeof summary>) =>
  `p50 ${fmt(s.p50, 2)} ms   p90 ${fmt(s.p90, 2)} ms   p99 ${fmt(s.p99, 2)} ms   mean ${fmt(s.mean, 2)} ms`;
line('through the cloud (call → hub bus)', figures(via));
line('baseline: signed POST straight to the hub', figures(bare));
line('ratio cloud / baseline, p50', `${fmt(via.p50 / bare.p50, 2)}×`);
line('ratio cloud / baseline, p99', `${fmt(via.p99 / bare.p99, 2)}×`);
line('the cloud hop adds, p50', `${fmt(via.p50 - bare.p50, 2)} ms`);

await hub.stop();
await drop();
await cloud.stop();
