/**
 * Virtual Matter devices, made with matter.js's device side, run in their own process (never in the hub):
 *
 *   node --import tsx device.ts --kind plug --port 5541 --storage /tmp/plug [--passcode 20202021 --discriminator 3840]
 *   node --import tsx device.ts --kind plug,thermostat --port 5541,5542 --passcode …,… --discriminator …,… --storage …
 *
 * Each kind (see `kinds.ts`) is a node of its own, on its own UDP port with its own pairing code; several kinds
 * share one process (the demo's devices) when given as comma-separated lists, one entry per device.
 * It prints one JSON line per event on stdout so that tests and `npm start` can follow it:
 * `{"event":"ready","device":"plug","port":…,"manualPairingCode":…,"qrPairingCode":…}` once a device listens, then
 * one line each time a followed attribute changes (by a controller or locally), e.g. `{"event":"onoff","value":true,
 * "device":"plug"}`, `{"event":"level","value":254}`, `{"event":"contact","value":true}` (true: closed),
 * `{"event":"temperature","value":2150}` (0.01 °C).
 * A line on stdin changes a device locally, as its button or its sensor would, prefixed with the device's kind when
 * the process runs several: `on`, `off`, `toggle`, `level <1-254>`, `contact open|closed`, `temperature <0.01 °C>`,
 * or any attribute: `set <cluster>.<attribute> <JSON value>` (`set electricalPowerMeasurement.activePower 60000`);
 * `get <cluster>.<attribute>` prints the device's own value: `{"event":"state","attribute":…,"value":…}`.
 */
import { parseArgs } from 'node:util';
import { Environment, Logger } from '@matter/main';
import { isVirtualDeviceKind, KINDS } from './kinds';
import { answerStdinCommands, closeOnSignals, startVirtualNode } from './node';

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
const list = (value: string | undefined) => (value ?? '').split(',').filter((entry) => entry !== '');
const kinds = list(values.kind);
const ports = list(values.port).map(Number);
if (!values.storage || kinds.length === 0 || ports.length !== kinds.length || !kinds.every(isVirtualDeviceKind)) {
  process.stderr.write(
    `usage: device.ts --kind ${Object.keys(KINDS).join('|')}[,…] --port <udp port>[,…] --storage <directory>\n`,
  );
  process.exit(2);
}

/** JSON of a line, with matter.js's 64-bit values (bigint) as numbers. */
const say = (line: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(line, (_key, value) => (typeof value === 'bigint' ? Number(value) : value))}\n`);
};

// stdout carries only the devices' JSON lines; matter.js's own log goes to stderr, notices and worse.
Logger.level = 'notice';
Logger.log = (_level, formatted) => process.stderr.write(`${formatted}\n`);
Environment.default.vars.set('path.root', values.storage);

const running = await Promise.all(
  kinds.map(async (kind, index) => {
    const device = await startVirtualNode(kind, {
      port: ports[index] as number,
      passcode: Number(list(values.passcode)[index] ?? 20202021),
      discriminator: Number(list(values.discriminator)[index] ?? 3840),
      ...(kinds.length === 1 && values.name ? { name: values.name } : {}),
      onChange: (event, value) => say({ event, value, device: kind }),
    });
    const { port, manualPairingCode, qrPairingCode } = device;
    say({ event: 'ready', device: kind, port, manualPairingCode, qrPairingCode });
    return device;
  }),
);

answerStdinCommands(running, (device, attribute, value) => say({ event: 'state', attribute, value, device: device.kind }));
closeOnSignals(running);
