import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The kinds of virtual device `device.ts` runs. */
export type VirtualDeviceKind = 'plug' | 'dimmable-light' | 'contact-sensor' | 'temperature-sensor';

/** A line the virtual device printed (see `device.ts`). */
export type DeviceLine =
  | { event: 'ready'; port: number; manualPairingCode: string; qrPairingCode: string }
  | { event: 'onoff'; value: boolean }
  | { event: 'level'; value: number | null }
  | { event: 'contact'; value: boolean }
  | { event: 'temperature'; value: number | null };

/** A virtual Matter device running in its own process, as tests and `npm start` drive it. */
export interface VirtualDeviceProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly manualPairingCode: string;
  readonly qrPairingCode: string;
  /** Every line it printed so far. */
  readonly lines: DeviceLine[];
  /** Resolves with the first line printed from now on that `match` accepts. */
  next(match: (line: DeviceLine) => boolean, ms?: number): Promise<DeviceLine>;
  /** Changes the device locally (its button): `on`, `off` or `toggle`. */
  press(command: 'on' | 'off' | 'toggle'): void;
  /** Sends any command `device.ts` understands (`level 100`, `contact open`, `temperature 2150`). */
  send(command: string): void;
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
function randomPasscode(): number {
  for (;;) {
    const passcode = randomInt(1, 99_999_999);
    const digits = String(passcode).padStart(8, '0');
    if (!/^(\d)\1{7}$/.test(digits) && digits !== '12345678' && digits !== '87654321') return passcode;
  }
}

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
  const port = options.port ?? (await freeUdpPort());
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      deviceScript,
      '--kind',
      kind,
      '--port',
      String(port),
      '--storage',
      storageDir,
      '--passcode',
      String(randomPasscode()),
      '--discriminator',
      String(randomInt(0, 4096)),
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
  const next = (match: (line: DeviceLine) => boolean, ms = 10_000) =>
    new Promise<DeviceLine>((resolveLine, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`The virtual device printed no matching line within ${ms} ms`));
      }, ms);
      const waiter = (line: DeviceLine) => {
        if (!match(line)) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolveLine(line);
      };
      waiters.add(waiter);
    });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const ready = await Promise.race([
    next((line) => line.event === 'ready', 90_000),
    exited.then(() => {
      throw new Error(`The virtual ${kind} exited before it was ready`);
    }),
  ]);
  if (ready.event !== 'ready') throw new Error('unreachable');
  return {
    child,
    port: ready.port,
    manualPairingCode: ready.manualPairingCode,
    qrPairingCode: ready.qrPairingCode,
    lines,
    next,
    press: (command) => child.stdin!.write(`${command}\n`),
    send: (command) => child.stdin!.write(`${command}\n`),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
