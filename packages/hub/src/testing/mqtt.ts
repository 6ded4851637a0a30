import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';

export { Z2M_DEVICES } from '../managers/mqtt/virtual-devices/z2m-devices';

/** A real MQTT broker (aedes) on a loopback port of its own, so test files never share topics. */
export interface TestBroker {
  readonly url: string;
  readonly port: number;
  /** Stops accepting and drops every client (a broker going away); retained messages are forgotten. */
  close(): Promise<void>;
  /** Starts again on the same port (a broker coming back). */
  restart(): Promise<void>;
}

export async function startBroker(port = 0): Promise<TestBroker> {
  let broker: Aedes;
  let server: Server;
  const listen = async (at: number) => {
    broker = await Aedes.createBroker();
    server = createServer(broker.handle);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    return typeof address === 'object' && address ? address.port : at;
  };
  const bound = await listen(port);
  const close = async () => {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `mqtt://127.0.0.1:${bound}`,
    port: bound,
    close,
    async restart() {
      await listen(bound);
    },
  };
}

/** Connects a plain client (what zigbee2mqtt is, to the broker). */
export function connectClient(url: string): Promise<MqttClient> {
  return mqtt.connectAsync(url, { reconnectPeriod: 0 });
}

/** Mosquitto on loopback (`.ci/run` starts it; `HEARTH_TEST_MQTT_URL` names another broker). */
export const MOSQUITTO_URL = process.env.HEARTH_TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** A topic prefix no other test (nor another run on the same broker) uses. */
export const testPrefix = (name: string) => `hearth-test/${name}-${randomBytes(4).toString('hex')}`;

/**
 * A TCP relay to a broker that a test can cut and restore: the broker shared by every test stays up, while the
 * hub behind the relay sees it go away (its connection dropped, new ones refused) and come back on the same port.
 */
export interface BrokerRelay {
  readonly url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function relayTo(brokerUrl: string): Promise<BrokerRelay> {
  const target = new URL(brokerUrl);
  const sockets = new Set<Socket>();
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((inbound) => {
        const outbound = connect(Number(target.port || 1883), target.hostname);
        for (const socket of [inbound, outbound]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            inbound.destroy();
            outbound.destroy();
          });
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return {
    url: `mqtt://127.0.0.1:${port}`,
    cut: stop,
    async restore() {
      await listen(port);
    },
    close: stop,
  };
}
