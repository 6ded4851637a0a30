/**
 * The demo's virtual Matter devices: a light, a white-spectrum light, a plug that measures its load, a door contact
 * and a thermostat, made with matter.js's device side, each a Matter node of its own on this machine's network,
 * all in this one process (never in the hub). `npm start` runs it bundled (`dist/matter-demo.js`) and has the hub
 * "Home" commission each over IP with its pairing code on first start, through the same pair session a person
 * uses (scripts/lib/matter-demo.mjs). These are not stand-ins for a radio: Matter runs over IP, and the hub speaks
 * real Matter to them; what is virtual is the device behind each node.
 *
 * Their fabrics and codes live in `MATTER_DEMO_DIR` (default `$HEARTH_DATA_DIR/matter-demo`): the same ports and
 * codes on every start, so the hub finds its nodes again. Once all listen it prints the line `npm start` waits for,
 * `HEARTH_READY {"kind":"matter","devices":[{"kind","name","zone","port","manualPairingCode","qrPairingCode"},…]}`; a line
 * `<kind> <command>` on stdin changes a device as its button or sensor would (see `localChange`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Environment, Logger } from '@matter/main';
import type { VirtualDeviceKind } from '../../managers/matter/virtual-devices/kinds';
import {
  answerStdinCommands,
  closeOnSignals,
  startVirtualNode,
  type VirtualNode,
} from '../../managers/matter/virtual-devices/node';
import { freshSetup } from '../../managers/matter/virtual-devices/process';

/** The demo's devices, with the name and the zone (of the demo world) each gets in the hub. */
export const DEMO_DEVICES: readonly { kind: VirtualDeviceKind; name: string; zone: string }[] = [
  { kind: 'dimmable-light', name: 'Hallway light', zone: 'Hallway' },
  { kind: 'color-temperature-light', name: 'Reading lamp', zone: 'Living room' },
  { kind: 'power-plug', name: 'Washing machine plug', zone: 'Kitchen' },
  { kind: 'contact-sensor', name: 'Back door', zone: 'Kitchen' },
  { kind: 'thermostat', name: 'Office thermostat', zone: 'Office' },
];

interface DeviceSetup {
  port: number;
  passcode: number;
  discriminator: number;
}

const dir = resolve(process.env.MATTER_DEMO_DIR ?? join(process.env.HEARTH_DATA_DIR ?? '.data', 'matter-demo'));
mkdirSync(dir, { recursive: true });
const setupFile = join(dir, 'devices.json');

/** Each device's port and code: chosen once, at random (no two demo worlds on one network answer the same code). */
async function setups(): Promise<Record<string, DeviceSetup>> {
  const known: Record<string, DeviceSetup> = existsSync(setupFile) ? JSON.parse(readFileSync(setupFile, 'utf8')) : {};
  for (const { kind } of DEMO_DEVICES) {
    known[kind] ??= await freshSetup();
  }
  writeFileSync(setupFile, `${JSON.stringify(known, null, 2)}\n`);
  return known;
}

// matter.js's own log: warnings and worse, on stderr (npm start shows it prefixed with this process's label).
Logger.level = 'warn';
Logger.log = (_level, formatted) => process.stderr.write(`${formatted}\n`);
Environment.default.vars.set('path.root', dir);

const chosen = await setups();
const running: VirtualNode[] = await Promise.all(
  DEMO_DEVICES.map(({ kind, name }) => startVirtualNode(kind, { ...(chosen[kind] as DeviceSetup), name })),
);
const devices = running.map((device, index) => ({
  kind: device.kind,
  name: DEMO_DEVICES[index]?.name,
  zone: DEMO_DEVICES[index]?.zone,
  port: device.port,
  manualPairingCode: device.manualPairingCode,
  qrPairingCode: device.qrPairingCode,
}));
console.log(`HEARTH_READY ${JSON.stringify({ kind: 'matter', devices })}`);

answerStdinCommands(running);
closeOnSignals(running);
