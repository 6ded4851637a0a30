import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const main = resolve(import.meta.dirname, '../virtual-devices/zwave/main.ts');

/** The virtual Z-Wave network (zwave-js's mock controller and nodes) in its own process, as a hub's stick. */
export interface ZwaveMockNetwork {
  /** What a hub opens as its stick (`HUB_ZWAVE_PORT`). */
  port: string;
  stop(): Promise<void>;
}

export function startZwaveMockNetwork(): Promise<ZwaveMockNetwork> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, ZWAVE_MOCK_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return new Promise((resolvePromise, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('ZWAVE_MOCK_READY ')) return;
      const { port } = JSON.parse(line.slice('ZWAVE_MOCK_READY '.length)) as { port: number };
      resolvePromise({
        port: `tcp://127.0.0.1:${port}`,
        async stop() {
          if (child.exitCode !== null) return;
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`the Z-Wave mock network exited with ${code}:\n${stderr.join('')}`)));
  });
}
