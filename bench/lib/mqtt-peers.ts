// The two MQTT clients bench/mqtt-devices.ts runs beside the hub, each in a worker thread of its own so that neither
// shares an event loop with the hub or the other: the publisher (a stand-in for zigbee2mqtt sending state messages)
// and the bare subscriber (the baseline). Times are absolute (performance.timeOrigin + now), comparable across threads.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';
import { setNoDelay } from '../../packages/hub/src/managers/mqtt/connection';

export interface PeerData {
  role: 'publisher' | 'subscriber';
  brokerUrl: string;
  base: string;
  devices: number;
}
/** To the publisher: publish sequence numbers [from, from + count), `rate` a second or as fast as it can (null). */
export interface PublishOrder {
  from: number;
  count: number;
  rate: number | null;
}

export const nameOf = (index: number) => `Sensor ${String(index).padStart(3, '0')}`;
/** Each message's temperature is its sequence number over 100: a value no message before it had. */
export const seqOf = (temperature: number) => Math.round(temperature * 100);
export const now = () => performance.timeOrigin + performance.now();

async function publisher({ brokerUrl, base, devices }: PeerData): Promise<void> {
  const client = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
  setNoDelay(client);
  parentPort?.on('message', async ({ from, count, rate }: PublishOrder) => {
    const sentAt: [number, number][] = [];
    const pending: Promise<unknown>[] = [];
    const started = now();
    for (let seq = from; seq < from + count; seq++) {
      if (rate !== null) {
        // Paced against the clock, not by a sleep per message: a late timer is caught up, never accumulated.
        const wait = started + ((seq - from) * 1000) / rate - now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const payload = JSON.stringify({ temperature: seq / 100, humidity: 50, linkquality: 120 });
      sentAt.push([seq, now()]);
      pending.push(client.publishAsync(`${base}/${nameOf(seq % devices)}`, payload, { qos: 1 }));
    }
    await Promise.all(pending);
    parentPort?.postMessage(sentAt);
  });
  parentPort?.postMessage('ready');
}

async function subscriber({ brokerUrl, base }: PeerData): Promise<void> {
  const client = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
  setNoDelay(client);
  let received: [number, number][] = [];
  client.on('message', (_topic, payload) => {
    const { temperature } = JSON.parse(payload.toString()) as { temperature?: number };
    if (typeof temperature === 'number') received.push([seqOf(temperature), now()]);
  });
  await client.subscribeAsync(`${base}/+`, { qos: 1 });
  // Asked, it hands over what it received since it was last asked.
  parentPort?.on('message', () => {
    parentPort?.postMessage(received);
    received = [];
  });
  parentPort?.postMessage('ready');
}

if (parentPort) {
  const data = workerData as PeerData;
  await (data.role === 'publisher' ? publisher(data) : subscriber(data));
}
