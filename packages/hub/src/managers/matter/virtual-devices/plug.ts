/**
 * A virtual Matter On/Off plug, made with matter.js's device side, run in its own process (never in the hub):
 *
 *   node --import tsx plug.ts --port 5541 --storage /tmp/plug [--passcode 20202021 --discriminator 3840]
 *
 * It prints one JSON line per event on stdout so that tests and `npm start` can follow it:
 * `{"event":"ready","port":…,"manualPairingCode":…,"qrPairingCode":…}` once it listens, then
 * `{"event":"onoff","value":true}` each time its On/Off attribute changes (by a controller or locally).
 * A line `on`, `off` or `toggle` on stdin changes the plug locally, as its button would.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Environment, Logger, ServerNode, VendorId } from '@matter/main';
import { OnOffPlugInUnitDevice } from '@matter/main/devices/on-off-plug-in-unit';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    storage: { type: 'string' },
    passcode: { type: 'string', default: '20202021' },
    discriminator: { type: 'string', default: '3840' },
    name: { type: 'string', default: 'Hearth virtual plug' },
  },
});
if (!values.port || !values.storage) {
  process.stderr.write('usage: plug.ts --port <udp port> --storage <directory>\n');
  process.exit(2);
}

const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

// stdout carries only this device's JSON lines; matter.js's own log goes to stderr, notices and worse.
Logger.level = 'notice';
Logger.log = (_level, formatted) => process.stderr.write(`${formatted}\n`);

const environment = Environment.default;
environment.vars.set('path.root', values.storage);

const node = await ServerNode.create({
  id: 'plug',
  network: { port: Number(values.port) },
  commissioning: { passcode: Number(values.passcode), discriminator: Number(values.discriminator) },
  productDescription: { name: values.name, deviceType: OnOffPlugInUnitDevice.deviceType },
  basicInformation: {
    vendorName: 'Hearth Matter Lab',
    // 0xFFF1 is a test vendor id of the Matter specification: a real device has its own.
    vendorId: VendorId(0xfff1),
    nodeLabel: values.name,
    productName: 'Virtual plug',
    productLabel: 'Virtual plug',
    productId: 0x8001,
    serialNumber: `hearth-plug-${values.port}`,
    uniqueId: `hearth-plug-${values.port}`,
  },
});
const plug = await node.add(OnOffPlugInUnitDevice, { id: 'plug' });
plug.events.onOff.onOff$Changed.on((value) => {
  say({ event: 'onoff', value });
});

await node.start();
const { manualPairingCode, qrPairingCode } = node.state.commissioning.pairingCodes;
say({ event: 'ready', port: Number(values.port), manualPairingCode, qrPairingCode });

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = line.trim();
  const current = plug.state.onOff.onOff;
  const next = command === 'on' ? true : command === 'off' ? false : command === 'toggle' ? !current : null;
  if (next === null) {
    process.stderr.write(`unknown command: ${command}\n`);
    return;
  }
  plug.set({ onOff: { onOff: next } }).catch((error: unknown) => process.stderr.write(`setting onOff failed: ${error}\n`));
});

const stop = () => {
  node.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
