import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';

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

const lightFeatures = [
  {
    type: 'binary',
    name: 'state',
    label: 'State',
    property: 'state',
    access: 7,
    value_on: 'ON',
    value_off: 'OFF',
    value_toggle: 'TOGGLE',
  },
  { type: 'numeric', name: 'brightness', label: 'Brightness', property: 'brightness', access: 7, value_min: 0, value_max: 254 },
  {
    type: 'numeric',
    name: 'color_temp',
    label: 'Color temp',
    property: 'color_temp',
    access: 7,
    unit: 'mired',
    value_min: 153,
    value_max: 454,
  },
  {
    type: 'composite',
    name: 'color_xy',
    label: 'Color (X/Y)',
    property: 'color',
    access: 7,
    features: [
      { type: 'numeric', name: 'x', property: 'x', access: 7 },
      { type: 'numeric', name: 'y', property: 'y', access: 7 },
    ],
  },
];
const linkquality = {
  type: 'numeric',
  name: 'linkquality',
  label: 'Linkquality',
  property: 'linkquality',
  access: 1,
  unit: 'lqi',
  value_min: 0,
  value_max: 255,
};

/**
 * What zigbee2mqtt publishes (retained) on `bridge/devices` for a network of a coordinator, a colour bulb, a plug
 * that meters power, a door contact and a remote, in the shape of its documentation's device list.
 */
export const Z2M_DEVICES = [
  {
    ieee_address: '0x00124b0024c2a4f1',
    type: 'Coordinator',
    network_address: 0,
    friendly_name: 'Coordinator',
    supported: true,
    interview_completed: true,
    definition: null,
    endpoints: {},
  },
  {
    ieee_address: '0x001788010b2c3d4e',
    type: 'Router',
    network_address: 18924,
    friendly_name: 'Living room/Lamp',
    supported: true,
    interview_completed: true,
    power_source: 'Mains (single phase)',
    definition: {
      model: '9290022166',
      vendor: 'Philips',
      description: 'Hue white and color ambiance E26/E27',
      exposes: [
        { type: 'light', features: lightFeatures },
        {
          type: 'enum',
          name: 'power_on_behavior',
          property: 'power_on_behavior',
          access: 7,
          values: ['off', 'on', 'toggle', 'previous'],
        },
        linkquality,
      ],
    },
  },
  {
    ieee_address: '0xa4c138f2e1d0c0b0',
    type: 'Router',
    network_address: 4411,
    friendly_name: 'Kettle plug',
    supported: true,
    interview_completed: true,
    definition: {
      model: 'TS011F_plug_1',
      vendor: 'Tuya',
      description: 'Smart plug (with power monitoring)',
      exposes: [
        {
          type: 'switch',
          features: [{ type: 'binary', name: 'state', property: 'state', access: 7, value_on: 'ON', value_off: 'OFF' }],
        },
        { type: 'numeric', name: 'power', property: 'power', access: 5, unit: 'W' },
        { type: 'numeric', name: 'current', property: 'current', access: 5, unit: 'A' },
        { type: 'numeric', name: 'voltage', property: 'voltage', access: 5, unit: 'V' },
        { type: 'numeric', name: 'energy', property: 'energy', access: 5, unit: 'kWh' },
        linkquality,
      ],
    },
  },
  {
    ieee_address: '0x00158d0001a2b3c4',
    type: 'EndDevice',
    network_address: 52011,
    friendly_name: 'Front door',
    supported: true,
    interview_completed: true,
    power_source: 'Battery',
    definition: {
      model: 'MCCGQ11LM',
      vendor: 'Aqara',
      description: 'Door and window sensor',
      exposes: [
        {
          type: 'binary',
          name: 'contact',
          property: 'contact',
          access: 1,
          value_on: false,
          value_off: true,
          description: 'Indicates if the contact is closed (= true) or open (= false)',
        },
        { type: 'numeric', name: 'battery', property: 'battery', access: 1, unit: '%', value_min: 0, value_max: 100 },
        { type: 'numeric', name: 'voltage', property: 'voltage', access: 1, unit: 'mV' },
        linkquality,
      ],
    },
  },
  {
    ieee_address: '0x000d6ffffe9a8b7c',
    type: 'EndDevice',
    network_address: 30211,
    friendly_name: 'Bedside remote',
    supported: true,
    interview_completed: true,
    power_source: 'Battery',
    definition: {
      model: 'E1743',
      vendor: 'IKEA',
      description: 'TRADFRI ON/OFF switch',
      exposes: [
        { type: 'numeric', name: 'battery', property: 'battery', access: 5, unit: '%', value_min: 0, value_max: 100 },
        {
          type: 'enum',
          name: 'action',
          property: 'action',
          access: 1,
          values: ['on', 'off', 'brightness_move_down', 'brightness_move_up', 'brightness_stop'],
        },
        linkquality,
      ],
    },
  },
];

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
