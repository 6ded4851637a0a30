// Issue 33 benchmark: a capability write to a zigbee2mqtt device, until confirmed. BENCH_WRITES times, one after
// another, `PUT …/capability/onoff` of a plug the hub's MQTT bridge made; it answers once the device's state message
// reports the value (the hub publishes `<name>/set`, a stand-in for zigbee2mqtt answers on `<name>` as zigbee2mqtt
// does). The baseline, in the same run and against the same broker and stand-in: a plain mqtt.js client doing the
// same round trip itself (publish `<name>/set`, wait for `<name>`). Printed: p50/p99 of each and the ratio hub / bare.
// The broker: a Mosquitto the benchmark starts on a free port with `set_tcp_nodelay true` (the `mosquitto` on the
// PATH; Debian's default leaves Nagle on, which holds every small packet for the client's 40 ms delayed ACK and so
// hides what the hub itself costs), or the one BENCH_MQTT_URL names.
// Run: npx tsx bench/mqtt.ts
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import mqtt from 'mqtt';
import { setNoDelay } from '../packages/hub/src/managers/mqtt/connection';
import { startBenchHub } from './lib/bench-hub';
import { onoffWrites } from './lib/capability-writes';
import { startMosquitto } from './lib/mosquitto';
import { fmt, line, percentile } from './lib/report';

const brokerUrl = process.env.BENCH_MQTT_URL ?? (await startMosquitto());
const writes = Number(process.env.BENCH_WRITES ?? 500);
const base = `hearth-bench/${randomBytes(4).toString('hex')}`;
const bareBase = `${base}-bare`;
const name = 'Bench plug';

/** A plug as zigbee2mqtt lists it on `bridge/devices`. */
const devices = [
  {
    ieee_address: '0xa4c138f2e1d0b3e7',
    type: 'Router',
    friendly_name: name,
    supported: true,
    interview_completed: true,
    definition: {
      model: 'TS011F_plug_1',
      vendor: 'Tuya',
      exposes: [
        {
          type: 'switch',
          features: [{ type: 'binary', name: 'state', property: 'state', access: 7, value_on: 'ON', value_off: 'OFF' }],
        },
      ],
    },
  },
];

// The stand-in for zigbee2mqtt: every `<name>/set` is answered with the new state on `<name>`, for both bases.
// Every client turns Nagle's algorithm off, as the hub's bridge does: the baseline is the best a plain client does.
const z2m = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
setNoDelay(z2m);
z2m.on('message', (topic, payload) => {
  if (topic.endsWith('/set')) z2m.publish(topic.slice(0, -'/set'.length), payload, { qos: 1 });
});
await z2m.subscribeAsync([`${base}/+/set`, `${bareBase}/+/set`], { qos: 1 });
await z2m.publishAsync(`${base}/bridge/devices`, JSON.stringify(devices), { qos: 1, retain: true });

const { hub } = await startBenchHub('be0c40000000000000000a77', { mqtt: { url: brokerUrl, baseTopic: base } });
const headers = {
  authorization: `Bearer ${hub.issueOwnerToken()}`,
  'x-homey-id': hub.context.config.id,
  'content-type': 'application/json',
};
let plugId: string | undefined;
for (let tries = 0; !plugId && tries < 200; tries++) {
  const list = (await (await fetch(`${hub.url}/api/manager/devices/device`, { headers })).json()) as Record<
    string,
    { id: string; name: string; driverId: string }
  >;
  plugId = Object.values(list).find((d) => d.name === name && d.driverId.endsWith(':zigbee2mqtt'))?.id;
  if (!plugId) await new Promise((resolve) => setTimeout(resolve, 50));
}
if (!plugId) throw new Error('the bridge made no device from bridge/devices: is the broker running?');

/** Latencies (ms, sorted) of `count` writes through the hub, each answered once the device confirmed it. */
const hubWrites = (count: number) => onoffWrites(hub.url, headers, plugId!, count);

/** The same round trip by a plain mqtt.js client: publish the command, wait for the state that carries it. */
async function bareWrites(count: number) {
  const client = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
  setNoDelay(client);
  await client.subscribeAsync(`${bareBase}/${name}`, { qos: 1 });
  let waiting: { state: string; done: () => void } | null = null;
  client.on('message', (_topic, payload) => {
    const state = (JSON.parse(payload.toString()) as { state?: unknown }).state;
    if (waiting && state === waiting.state) waiting.done();
  });
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const state = i % 2 === 0 ? 'ON' : 'OFF';
    const start = performance.now();
    const confirmed = new Promise<void>((done) => {
      waiting = { state, done };
    });
    await client.publishAsync(`${bareBase}/${name}/set`, JSON.stringify({ state }), { qos: 1 });
    await confirmed;
    latencies.push(performance.now() - start);
  }
  await client.endAsync();
  return latencies.sort((a, b) => a - b);
}

const brokerName = process.env.BENCH_MQTT_URL ? brokerUrl : `its own Mosquitto, ${brokerUrl}, TCP_NODELAY`;
console.log(`MQTT capability write until confirmed (${writes} writes, one at a time; broker: ${brokerName})`);
// Warm both paths up (JIT, connections) before measuring.
await hubWrites(50);
await bareWrites(50);
const bare = await bareWrites(writes);
const through = await hubWrites(writes);
const describe = (l: number[]) => `p50 ${fmt(percentile(l, 50), 2)} ms  p99 ${fmt(percentile(l, 99), 2)} ms`;
line('bare mqtt.js: publish /set, await state', describe(bare));
line('hub: PUT capability, answered when confirmed', describe(through));
const p50 = percentile(through, 50) / percentile(bare, 50);
const p99 = percentile(through, 99) / percentile(bare, 99);
line('ratio hub / bare', `p50 ${fmt(p50)}×  p99 ${fmt(p99)}×`, {
  text: 'the hub adds < 5 ms at p50 (HTTP, checks, store, publish, confirm)',
  met: percentile(through, 50) - percentile(bare, 50) < 5,
});

await z2m.publishAsync(`${base}/bridge/devices`, '', { qos: 1, retain: true });
await z2m.endAsync();
await hub.stop();
process.exit(0);
