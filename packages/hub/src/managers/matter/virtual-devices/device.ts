/**
 * A virtual Matter device, made with matter.js's device side, run in its own process (never in the hub):
 *
 *   node --import tsx device.ts --kind plug --port 5541 --storage /tmp/plug [--passcode 20202021 --discriminator 3840]
 *
 * Kinds: `plug` (On/Off Plug-in Unit), `dimmable-light` (Dimmable Light: On/Off and Level Control),
 * `contact-sensor` (Contact Sensor: Boolean State), `temperature-sensor` (Temperature Sensor).
 * It prints one JSON line per event on stdout so that tests and `npm start` can follow it:
 * `{"event":"ready","port":…,"manualPairingCode":…,"qrPairingCode":…}` once it listens, then one line each time
 * an attribute changes (by a controller or locally): `{"event":"onoff","value":true}`, `{"event":"level","value":254}`,
 * `{"event":"contact","value":true}` (true: closed), `{"event":"temperature","value":2150}` (0.01 °C).
 * A line on stdin changes the device locally, as its button or its sensor would: `on`, `off`, `toggle`,
 * `level <1-254>`, `contact open|closed`, `temperature <0.01 °C>`.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Environment, Logger, ServerNode, VendorId } from '@matter/main';
import { ContactSensorDevice } from '@matter/main/devices/contact-sensor';
import { DimmableLightDevice } from '@matter/main/devices/dimmable-light';
import { OnOffPlugInUnitDevice } from '@matter/main/devices/on-off-plug-in-unit';
import { TemperatureSensorDevice } from '@matter/main/devices/temperature-sensor';

const KINDS = {
  plug: { type: OnOffPlugInUnitDevice, product: 'Virtual plug', productId: 0x8001 },
  'dimmable-light': { type: DimmableLightDevice, product: 'Virtual dimmable light', productId: 0x8002 },
  'contact-sensor': { type: ContactSensorDevice, product: 'Virtual contact sensor', productId: 0x8003 },
  'temperature-sensor': { type: TemperatureSensorDevice, product: 'Virtual temperature sensor', productId: 0x8004 },
} as const;
type Kind = keyof typeof KINDS;

const { values } = parseArgs({
  options: {
    kind: { type: 'string', default: 'plug' },
    port: { type: 'string' },
    storage: { type: 'string' },
    passcode: { type: 'string', default: '20202021' },
    discriminator: { type: 'string', default: '3840' },
    name: { type: 'string' },
  },
});
if (!values.port || !values.storage || !(values.kind in KINDS)) {
  process.stderr.write(`usage: device.ts --kind ${Object.keys(KINDS).join('|')} --port <udp port> --storage <directory>\n`);
  process.exit(2);
}
const kind = values.kind as Kind;
const { type, product, productId } = KINDS[kind];
// Matter limits labels to 32 characters.
const name = (values.name ?? product).slice(0, 32);

const say = (line: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

// stdout carries only this device's JSON lines; matter.js's own log goes to stderr, notices and worse.
Logger.level = 'notice';
Logger.log = (_level, formatted) => process.stderr.write(`${formatted}\n`);

const environment = Environment.default;
environment.vars.set('path.root', values.storage);

const node = await ServerNode.create({
  id: kind,
  network: { port: Number(values.port) },
  commissioning: { passcode: Number(values.passcode), discriminator: Number(values.discriminator) },
  productDescription: { name, deviceType: type.deviceType },
  basicInformation: {
    vendorName: 'Hearth Matter Lab',
    // 0xFFF1 is a test vendor id of the Matter specification: a real device has its own.
    vendorId: VendorId(0xfff1),
    nodeLabel: name,
    productName: product,
    productLabel: product,
    productId,
    serialNumber: `hearth-${kind}-${values.port}`,
    uniqueId: `hearth-${kind}-${values.port}`,
  },
});
/** Applies one stdin command to the device; false when the command is not one this kind understands. */
let apply: (command: string, argument: string | undefined) => Promise<boolean>;

/** The On/Off commands of a plug or a light, on the endpoint's state. */
const onOffCommand = (current: boolean, command: string) =>
  command === 'on' ? true : command === 'off' ? false : command === 'toggle' ? !current : null;

if (kind === 'plug') {
  const plug = await node.add(OnOffPlugInUnitDevice, { id: kind });
  plug.events.onOff.onOff$Changed.on((value) => say({ event: 'onoff', value }));
  apply = async (command) => {
    const next = onOffCommand(plug.state.onOff.onOff, command);
    if (next === null) return false;
    await plug.set({ onOff: { onOff: next } });
    return true;
  };
} else if (kind === 'dimmable-light') {
  const light = await node.add(DimmableLightDevice, { id: kind, levelControl: { currentLevel: 254 } });
  light.events.onOff.onOff$Changed.on((value) => say({ event: 'onoff', value }));
  light.events.levelControl.currentLevel$Changed.on((value) => say({ event: 'level', value }));
  apply = async (command, argument) => {
    if (command === 'level') {
      await light.set({ levelControl: { currentLevel: Number(argument) } });
      return true;
    }
    const next = onOffCommand(light.state.onOff.onOff, command);
    if (next === null) return false;
    await light.set({ onOff: { onOff: next } });
    return true;
  };
} else if (kind === 'contact-sensor') {
  const sensor = await node.add(ContactSensorDevice, { id: kind, booleanState: { stateValue: true } });
  sensor.events.booleanState.stateValue$Changed.on((value) => say({ event: 'contact', value }));
  apply = async (command, argument) => {
    if (command !== 'contact' || (argument !== 'open' && argument !== 'closed')) return false;
    await sensor.set({ booleanState: { stateValue: argument === 'closed' } });
    return true;
  };
} else {
  const sensor = await node.add(TemperatureSensorDevice, { id: kind, temperatureMeasurement: { measuredValue: 2000 } });
  sensor.events.temperatureMeasurement.measuredValue$Changed.on((value) => say({ event: 'temperature', value }));
  apply = async (command, argument) => {
    if (command !== 'temperature' || !Number.isFinite(Number(argument))) return false;
    await sensor.set({ temperatureMeasurement: { measuredValue: Math.round(Number(argument)) } });
    return true;
  };
}

await node.start();
const { manualPairingCode, qrPairingCode } = node.state.commissioning.pairingCodes;
say({ event: 'ready', port: Number(values.port), manualPairingCode, qrPairingCode });

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command = '', argument] = line.trim().split(/\s+/);
  apply(command, argument).then(
    (known) => {
      if (!known) process.stderr.write(`unknown command for a ${kind}: ${line}\n`);
    },
    (error: unknown) => process.stderr.write(`${line} failed: ${error}\n`),
  );
});

const stop = () => {
  node.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
