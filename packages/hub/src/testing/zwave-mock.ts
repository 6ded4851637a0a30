import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const main = resolve(import.meta.dirname, '../virtual-devices/zwave/main.ts');

/** The virtual Z-Wave network (zwave-js's mock controller and nodes) in its own process, as a hub's stick. */
export interface ZwaveMockNetwork {
  /** What a hub opens as its stick (`HUB_ZWAVE_PORT`). */
  port: string;
  /** Asks the network a control line (`virtual-devices/zwave/control.ts`); answers its result, rejects with its error. */
  ask<T = unknown>(op: string, request?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/** Starts the network; `nodes: false` starts it without its virtual nodes (for tests of nodes joining). */
export function startZwaveMockNetwork(options: { nodes?: boolean } = {}): Promise<ZwaveMockNetwork> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, ZWAVE_MOCK_PORT: '0', ...(options.nodes === false ? { ZWAVE_MOCK_NODES: 'none' } : {}) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  return new Promise((resolvePromise, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('ZWAVE_MOCK_ANSWER ')) {
        const answer = JSON.parse(line.slice('ZWAVE_MOCK_ANSWER '.length)) as { id: number; result?: unknown; error?: string };
        const caller = waiting.get(answer.id);
        waiting.delete(answer.id);
        if (answer.error !== undefined) caller?.reject(new Error(answer.error));
        else caller?.resolve(answer.result);
        return;
      }
      if (!line.startsWith('ZWAVE_MOCK_READY ')) return;
      const { port } = JSON.parse(line.slice('ZWAVE_MOCK_READY '.length)) as { port: number };
      resolvePromise({
        port: `tcp://127.0.0.1:${port}`,
        ask<T>(op: string, request: Record<string, unknown> = {}) {
          const id = nextId++;
          return new Promise<T>((resolveAnswer, rejectAnswer) => {
            waiting.set(id, { resolve: resolveAnswer as (value: unknown) => void, reject: rejectAnswer });
            child.stdin!.write(`${JSON.stringify({ ...request, id, op })}\n`);
          });
        },
        async stop() {
          if (child.exitCode !== null) return;
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      for (const caller of waiting.values()) caller.reject(new Error('the Z-Wave mock network exited'));
      reject(new Error(`the Z-Wave mock network exited with ${code}:\n${stderr.join('')}`));
    });
  });
}
