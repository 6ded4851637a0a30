// Issue 33 benchmark: 200 zigbee2mqtt devices' state messages through the hub's MQTT bridge. A stand-in for
// zigbee2mqtt lists 200 temperature/humidity sensors on `bridge/devices`; once the bridge made their hub devices, it
// publishes state messages (`<friendly_name>`, a new temperature each, round robin over the devices, QoS 1):
//   1. paced: BENCH_RATE messages a second (default 1,000) for BENCH_SECONDS (default 10);
//   2. burst: BENCH_BURST messages (default 20,000) as fast as the publisher can send them.
// Measured in the same run, on the same messages: the bridge (a message counts once its value is stored on the
// device's capability: the hub's `device.capability` event) and a bare mqtt.js client subscribed to the same topics
// (a message counts once received and its JSON parsed). The publisher and the bare client each run in a worker
// thread of their own (bench/lib/mqtt-peers.ts): sharing the hub's event loop would slow all three alike. Printed per phase: messages delivered (loss), throughput
// (messages/s from the first publish to the last delivery), p50/p99 latency from publish to delivery, and the ratio
// bridge / bare. Broker: a Mosquitto of its own (bench/lib/mosquitto.ts) or BENCH_MQTT_URL.
// Run: npx tsx bench/mqtt-devices.ts
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import mqtt from 'mqtt';
import { startBenchHub } from './lib/bench-hub';
import { startMosquitto } from './lib/mosquitto';
import { nameOf, now, type PeerData, type PublishOrder, seqOf } from './lib/mqtt-peers';
import { fmt, line, percentile } from './lib/report';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 20_000);
const brokerUrl = process.env.BENCH_MQTT_URL ?? (await startMosquitto());
const base = `hearth-bench/${randomBytes(4).toString('hex')}`;

const numeric = (property: string, unit: string) => ({ type: 'numeric', name: property, property, access: 1, unit });
/** zigbee2mqtt's `bridge/devices`: DEVICES temperature/humidity sensors, each with its own address. */
const devices = Array.from({ length: DEVICES }, (_, index) => ({
  ieee_address: `0x00158d00${index.toString(16).padStart(8, '0')}`,
  type: 'EndDevice',
  friendly_name: nameOf(index),
  supported: true,
  interview_completed: true,
  definition: {
    model: 'WSDCGQ11LM',
    vendor: 'Aqara',
    exposes: [numeric('temperature', '°C'), numeric('humidity', '%')],
  },
}));

/** zigbee2mqtt's retained device list, published (and cleared at the end) by a client of its own. */
const z2m = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
await z2m.publishAsync(`${base}/bridge/devices`, JSON.stringify(devices), { qos: 1, retain: true });

const { hub } = await startBenchHub('be0c40000000000000000b20', { mqtt: { url: brokerUrl, baseTopic: base } });
/** Hub device id → its sensor's index. */
const indexByDevice = new Map<string, number>();
for (let tries = 0; indexByDevice.size < DEVICES && tries < 600; tries++) {
  for (const device of hub.services.devices.list()) {
    const index = devices.findIndex((d) => d.friendly_name === device.name);
    if (index >= 0 && device.driverId.endsWith(':zigbee2mqtt')) indexByDevice.set(device.id, index);
  }
  if (indexByDevice.size < DEVICES) await new Promise((resolve) => setTimeout(resolve, 100));
}
if (indexByDevice.size < DEVICES) throw new Error(`the bridge made ${indexByDevice.size} of ${DEVICES} devices`);

/** Publish times by sequence number, as the publisher reported them. */
const sentAt = new Map<number, number>();

/** Who delivered which sequence numbers, and when. */
class Deliveries {
  readonly at = new Map<number, number>();
  record(seq: number, at: number): void {
    if (!this.at.has(seq)) this.at.set(seq, at);
  }
  /** Delivered count, throughput (messages/s, first publish → last delivery) and sorted latencies of [from, to). */
  figures(from: number, to: number) {
    const latencies: number[] = [];
    let last = 0;
    for (let seq = from; seq < to; seq++) {
      const at = this.at.get(seq);
      if (at === undefined) continue;
      latencies.push(at - (sentAt.get(seq) as number));
      last = Math.max(last, at);
    }
    const seconds = (last - (sentAt.get(from) as number)) / 1000;
    return { delivered: latencies.length, throughput: latencies.length / seconds, latencies: latencies.sort((a, b) => a - b) };
  }
}

const bridge = new Deliveries();
hub.context.bus.on('device.capability', 'bench', ({ deviceId, capabilityId, value }) => {
  if (capabilityId === 'measure_temperature' && indexByDevice.has(deviceId)) bridge.record(seqOf(Number(value)), now());
});
const bare = new Deliveries();

/** Starts one of the peers in its worker thread; answers it once it is connected. */
async function peer(role: PeerData['role']): Promise<Worker> {
  const data: PeerData = { role, brokerUrl, base, devices: DEVICES };
  // The peers are TypeScript, run from source as this script is: the worker registers tsx before importing them.
  const peers = new URL('./lib/mqtt-peers.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(peers)}); })`;
  const worker = new Worker(bootstrap, { eval: true, workerData: data });
  await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  return worker;
}
const publisher = await peer('publisher');
const subscriber = await peer('subscriber');
const ask = <T>(worker: Worker, message: unknown) =>
  new Promise<T>((resolve) => {
    worker.once('message', resolve);
    worker.postMessage(message);
  });
/** Fetches what the bare subscriber received so far. */
async function collectBare(): Promise<void> {
  for (const [seq, at] of await ask<[number, number][]>(subscriber, 'report')) bare.record(seq, at);
}

let nextSeq = 1;
/** Has the publisher send `count` messages (`rate` a second, or as fast as it can); answers once all are sent. */
async function publish(count: number, rate: number | null): Promise<void> {
  const order: PublishOrder = { from: nextSeq, count, rate };
  nextSeq += count;
  for (const [seq, at] of await ask<[number, number][]>(publisher, order)) sentAt.set(seq, at);
}

/** Waits until both have delivered `[from, to)` or nothing more arrived for 5 s. */
async function settle(from: number, to: number): Promise<void> {
  let seen = -1;
  for (let quiet = 0; quiet < 50; quiet++) {
    await collectBare();
    const delivered = bridge.at.size + bare.at.size;
    if (bridge.figures(from, to).delivered === to - from && bare.figures(from, to).delivered === to - from) return;
    if (delivered !== seen) quiet = 0;
    seen = delivered;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Prints a phase's figures; `sustained`: the goal applies (the rate kept up with, nothing lost). */
function report(title: string, from: number, to: number, sustained: boolean): void {
  const sent = to - from;
  const describe = (d: ReturnType<Deliveries['figures']>) =>
    `${d.delivered}/${sent} delivered, ${fmt(d.throughput, 0)} msg/s, p50 ${fmt(percentile(d.latencies, 50), 2)} ms  p99 ${fmt(percentile(d.latencies, 99), 2)} ms`;
  const b = bare.figures(from, to);
  const h = bridge.figures(from, to);
  console.log(title);
  line('bare mqtt.js: received and parsed', describe(b));
  line('hub bridge: stored on the capability', describe(h));
  const p99 = percentile(h.latencies, 99) / percentile(b.latencies, 99);
  const goal = {
    text: `${RATE} msg/s from ${DEVICES} devices sustained, no loss`,
    met: h.delivered === sent && h.throughput >= 0.95 * RATE,
  };
  line(
    'ratio bridge / bare',
    `throughput ${fmt(h.throughput / b.throughput, 2)}×  p99 ${fmt(p99, 1)}×`,
    sustained ? goal : undefined,
  );
}

console.log(`zigbee2mqtt: ${DEVICES} devices through the hub's MQTT bridge (broker ${brokerUrl})`);
// Warm-up: a round over every device (JIT, the devices' first values).
const warmFrom = nextSeq;
await publish(DEVICES * 2, null);
await settle(warmFrom, nextSeq);

const pacedFrom = nextSeq;
await publish(RATE * SECONDS, RATE);
await settle(pacedFrom, nextSeq);
report(`1. paced: ${RATE} messages/s for ${SECONDS} s (${RATE * SECONDS} messages)`, pacedFrom, nextSeq, true);

const burstFrom = nextSeq;
await publish(BURST, null);
await settle(burstFrom, nextSeq);
report(`2. burst: ${BURST} messages as fast as they can be published`, burstFrom, nextSeq, false);

await z2m.publishAsync(`${base}/bridge/devices`, '', { qos: 1, retain: true });
await z2m.endAsync();
await Promise.all([publisher.terminate(), subscriber.terminate()]);
await hub.stop();
process.exit(0);
