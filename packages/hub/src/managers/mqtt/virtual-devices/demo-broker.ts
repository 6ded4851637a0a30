import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { Z2M_DEVICES } from './z2m-devices';
import { type StandInDevice, Zigbee2MqttStandIn } from './zigbee2mqtt-stand-in';

/**
 * `npm start`'s demo MQTT broker, in a process of its own: Mosquitto when it is installed (`MQTT_DEMO_BROKER=aedes`
 * chooses the embedded one anyway), else aedes in this process. On it, a STAND-IN FOR zigbee2mqtt publishes a small
 * Zigbee network, and a STAND-IN FOR an ESPHome sensor announces itself with Home Assistant's discovery, so the demo
 * hub's bridge has devices without any radio. Prints `HEARTH_READY {url, broker, devices}`.
 */

const env = process.env;
const host = env.MQTT_DEMO_HOST ?? '127.0.0.1';
/** The port it prefers; when that is taken (another broker, another demo) it takes a free one and says so. */
const preferredPort = Number(env.MQTT_DEMO_PORT ?? 1884);
const dataDir = env.HEARTH_DATA_DIR ?? '.data';

/** The first state of each demo Zigbee device, by friendly name (what zigbee2mqtt would have kept). */
const STATES: Record<string, Record<string, unknown>> = {
  'Living room/Lamp': { state: 'ON', brightness: 180, color_temp: 370, linkquality: 142 },
  'Kettle plug': { state: 'OFF', power: 0, current: 0, voltage: 231, energy: 12.4, linkquality: 96 },
  'Front door': { contact: true, battery: 91, voltage: 3005, linkquality: 60 },
  'Bedside remote': { battery: 74, linkquality: 51 },
};

/** A balcony sensor as ESPHome announces it (Home Assistant discovery), and its first readings. */
const ESPHOME_NODE = 'balcony-sensor';
const ESPHOME_DEVICE = {
  identifiers: [`esphome-${ESPHOME_NODE}`],
  name: 'Balcony sensor',
  manufacturer: 'espressif',
  model: 'esp32dev',
};
/** ESPHome's discovery config of one of its sensors (`device_class` names it, as ESPHome names its topics). */
const esphomeSensor = (deviceClass: string, name: string, unit: string) => ({
  name,
  unique_id: `${ESPHOME_NODE}-${deviceClass}`,
  state_topic: `${ESPHOME_NODE}/sensor/${deviceClass}/state`,
  availability_topic: `${ESPHOME_NODE}/status`,
  device_class: deviceClass,
  unit_of_measurement: unit,
  device: ESPHOME_DEVICE,
});
const ESPHOME_CONFIGS: Record<string, Record<string, unknown>> = {
  [`sensor/${ESPHOME_NODE}/temperature`]: esphomeSensor('temperature', 'Temperature', '°C'),
  [`sensor/${ESPHOME_NODE}/humidity`]: esphomeSensor('humidity', 'Humidity', '%'),
};

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .listen(port, host, () => probe.close(() => resolve(true)));
  });

async function freePort(): Promise<number> {
  if (await portIsFree(preferredPort)) return preferredPort;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, host, () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Mosquitto's binary when it is installed (Debian puts it in /usr/sbin, often not on a user's PATH). */
function findMosquitto(): { path: string; version: string } | null {
  for (const path of ['mosquitto', '/usr/sbin/mosquitto', '/usr/local/sbin/mosquitto']) {
    if (path.startsWith('/') && !existsSync(path)) continue;
    const probe = spawnSync(path, ['-h'], { encoding: 'utf8' });
    const version = /mosquitto version (\S+)/.exec(`${probe.stdout}${probe.stderr}`)?.[1];
    if (version) return { path, version };
  }
  return null;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, host)
      .once('connect', () => {
        socket.destroy();
        resolve(true);
      })
      .once('error', () => resolve(false));
  });

interface RunningBroker {
  readonly url: string;
  readonly broker: string;
  stop(): Promise<void>;
}

async function startMosquitto(mosquitto: { path: string; version: string }, port: number): Promise<RunningBroker> {
  const dir = join(dataDir, 'mqtt-demo');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'mosquitto.conf');
  // Loopback only and anonymous, like the rest of the demo; nothing kept between runs (the stand-ins publish again).
  writeFileSync(config, `listener ${port} ${host}\nallow_anonymous true\npersistence false\nlog_dest stderr\nlog_type error\n`);
  const child: ChildProcess = spawn(mosquitto.path, ['-c', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let waited = 0; !(await accepts(port)); waited += 50) {
    if (child.exitCode !== null || waited > 10_000) throw new Error(`Mosquitto did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `mqtt://${host}:${port}`,
    broker: `Mosquitto ${mosquitto.version}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function startAedes(port: number): Promise<RunningBroker> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    url: `mqtt://${host}:${port}`,
    broker: 'aedes (embedded)',
    stop: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The ESPHome stand-in: its discovery configs, availability and readings, retained as ESPHome keeps them. */
async function announceEsphome(url: string): Promise<mqtt.MqttClient> {
  const client = await mqtt.connectAsync(url, {
    clientId: `esphome-stand-in-${process.pid}`,
    will: { topic: `${ESPHOME_NODE}/status`, payload: Buffer.from('offline'), retain: true, qos: 1 },
  });
  const publish = (topic: string, payload: string) => client.publishAsync(topic, payload, { qos: 1, retain: true });
  await publish(`${ESPHOME_NODE}/status`, 'online');
  await publish(`${ESPHOME_NODE}/sensor/temperature/state`, '18.6');
  await publish(`${ESPHOME_NODE}/sensor/humidity/state`, '64');
  for (const [key, config] of Object.entries(ESPHOME_CONFIGS))
    await publish(`homeassistant/${key}/config`, JSON.stringify(config));
  return client;
}

async function main(): Promise<void> {
  const port = await freePort();
  const mosquitto = env.MQTT_DEMO_BROKER === 'aedes' ? null : findMosquitto();
  const broker = mosquitto ? await startMosquitto(mosquitto, port) : await startAedes(port);
  const zigbee2mqtt = await Zigbee2MqttStandIn.start({
    url: broker.url,
    devices: Z2M_DEVICES as StandInDevice[],
    states: STATES,
  });
  const esphome = await announceEsphome(broker.url);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void (async () => {
        await zigbee2mqtt.stop(false);
        await esphome.endAsync();
        await broker.stop();
        process.exit(0);
      })();
    });
  }
  const devices = Z2M_DEVICES.filter((d) => d.type !== 'Coordinator').length + 1;
  console.log(`HEARTH_READY ${JSON.stringify({ kind: 'mqtt', url: broker.url, broker: broker.broker, devices })}`);
}

main().catch((error: unknown) => {
  console.error(`demo MQTT broker: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
