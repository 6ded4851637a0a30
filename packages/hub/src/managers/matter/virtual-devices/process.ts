import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { VirtualDeviceKind } from './kinds';

export type { VirtualDeviceKind } from './kinds';

/** A line a virtual device printed (see `device.ts`). */
export type DeviceLine =
  | { event: 'ready'; device: VirtualDeviceKind; port: number; manualPairingCode: string; qrPairingCode: string }
  | { event: 'onoff'; value: boolean; device: VirtualDeviceKind }
  | { event: 'level'; value: number | null; device: VirtualDeviceKind }
  | { event: 'contact'; value: boolean; device: VirtualDeviceKind }
  | { event: 'temperature'; value: number | null; device: VirtualDeviceKind }
  | { event: 'state'; attribute: string; value: unknown; device: VirtualDeviceKind }
  | { event: Exclude<string, 'ready'>; value: unknown; device: VirtualDeviceKind };

/** A virtual Matter device running in a process of its own (alone, or with the others of one `startVirtualDevices`). */
export interface VirtualDeviceProcess {
  readonly kind: VirtualDeviceKind;
  readonly child: ChildProcess;
  readonly port: number;
  readonly manualPairingCode: string;
  readonly qrPairingCode: string;
  /** Every line this device printed so far. */
  readonly lines: DeviceLine[];
  /** Resolves with the first line this device prints from now on that `match` accepts. */
  next(match: (line: DeviceLine) => boolean, ms?: number): Promise<DeviceLine>;
  /** Changes the device locally (its button): `on`, `off` or `toggle`. */
  press(command: 'on' | 'off' | 'toggle'): void;
  /** Sends any command `device.ts` understands (`level 100`, `contact open`, `set thermostat.systemMode 3`). */
  send(command: string): void;
  /** The device's own value of an attribute (`colorControl.colorTemperatureMireds`), asked of it now. */
  get(attribute: string): Promise<unknown>;
  /** Stops the device's process (with every device in it). */
  stop(): Promise<void>;
}

/** A free UDP port on this machine (each virtual device listens on its own). */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const socket = createSocket('udp6');
    socket.once('error', reject);
    socket.bind(0, () => {
      const { port } = socket.address();
      socket.close(() => resolvePort(port));
    });
  });
}

/**
 * A setup passcode the Matter specification allows (it forbids 00000000, 11111111 … 99999999, 12345678 and
 * 87654321). Random per device, so that devices of other test runs on the same network never answer our code.
 */
export function randomPasscode(): number {
  for (;;) {
    const passcode = randomInt(1, 99_999_999);
    const digits = String(passcode).padStart(8, '0');
    if (!/^(\d)\1{7}$/.test(digits) && digits !== '12345678' && digits !== '87654321') return passcode;
  }
}

/** Where and how a new virtual device listens: a free UDP port, a random allowed passcode and discriminator. */
export async function freshSetup(): Promise<{ port: number; passcode: number; discriminator: number }> {
  return { port: await freeUdpPort(), passcode: randomPasscode(), discriminator: randomInt(0, 4096) };
}

/** The fields of `given` that are set (an explicit `undefined` does not replace a default). */
const definedOnly = <T extends object>(given: T): Partial<T> =>
  Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<T>;

const deviceScript = resolve(import.meta.dirname, 'device.ts');

/** Starts the virtual On/Off plug in its own Node process and waits until it prints its pairing code. */
export const startVirtualPlug = (storageDir: string, options: { port?: number } = {}) =>
  startVirtualDevice('plug', storageDir, options);

/** Starts a virtual Matter device in its own Node process and waits until it prints its pairing code. */
export async function startVirtualDevice(
  kind: VirtualDeviceKind,
  storageDir: string,
  options: { port?: number } = {},
): Promise<VirtualDeviceProcess> {
  const [device] = await startVirtualDevices([{ kind, port: options.port }], storageDir);
  return device as VirtualDeviceProcess;
}

/** How one device of {@link startVirtualDevices} starts: a free port and a random code unless given. */
export interface VirtualDeviceStart {
  kind: VirtualDeviceKind;
  port?: number;
  passcode?: number;
  discriminator?: number;
}

/**
 * Starts several virtual Matter devices in one Node process (each its own node, port and pairing code; one kind
 * once per process) and waits until each printed its pairing code.
 */
export async function startVirtualDevices(
  devices: readonly VirtualDeviceStart[],
  storageDir: string,
): Promise<VirtualDeviceProcess[]> {
  const starts = await Promise.all(
    devices.map(async ({ kind, ...given }) => ({ kind, ...(await freshSetup()), ...definedOnly(given) })),
  );
  const argument = (field: 'kind' | 'port' | 'passcode' | 'discriminator') => starts.map((s) => s[field]).join(',');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      deviceScript,
      ...['--kind', argument('kind'), '--port', argument('port'), '--storage', storageDir],
      ...['--passcode', argument('passcode'), '--discriminator', argument('discriminator')],
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const lines: DeviceLine[] = [];
  const waiters = new Set<(line: DeviceLine) => void>();
  createInterface({ input: child.stdout! }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as DeviceLine;
    lines.push(line);
    for (const waiter of [...waiters]) waiter(line);
  });
  const next = (kind: VirtualDeviceKind, match: (line: DeviceLine) => boolean, ms = 10_000) =>
    new Promise<DeviceLine>((resolveLine, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`The virtual ${kind} printed no matching line within ${ms} ms`));
      }, ms);
      const waiter = (line: DeviceLine) => {
        if (line.device !== kind || !match(line)) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolveLine(line);
      };
      waiters.add(waiter);
    });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    return await Promise.all(
      starts.map(async ({ kind }): Promise<VirtualDeviceProcess> => {
        const ready = await Promise.race([
          next(kind, (line) => line.event === 'ready', 90_000),
          exited.then(() => {
            throw new Error(`The virtual ${kind} exited before it was ready`);
          }),
        ]);
        if (ready.event !== 'ready' || !('port' in ready)) throw new Error('unreachable');
        const prefix = starts.length === 1 ? '' : `${kind} `;
        return {
          kind,
          child,
          port: ready.port,
          manualPairingCode: ready.manualPairingCode,
          qrPairingCode: ready.qrPairingCode,
          get lines() {
            return lines.filter((line) => line.device === kind);
          },
          next: (match, ms) => next(kind, match, ms),
          press: (command) => child.stdin!.write(`${prefix}${command}\n`),
          send: (command) => child.stdin!.write(`${prefix}${command}\n`),
          async get(attribute) {
            const answer = next(kind, (line) => line.event === 'state' && 'attribute' in line && line.attribute === attribute);
            child.stdin!.write(`${prefix}get ${attribute}\n`);
            const line = await answer;
            return 'value' in line ? line.value : undefined;
          },
          stop,
        };
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
}
