import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const main = resolve(import.meta.dirname, '../main.ts');

/** Starts the hub as its own process, as `npm start` does, and waits for its ready line (for kill tests). */
export function startHubProcess(id: string, dataDir: string): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, HUB_ID: id, HUB_PORT: '0', HEARTH_DATA_DIR: dataDir, LOG_LEVEL: 'silent', HEARTH_CLOUD_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('HEARTH_READY ')) return;
      const ready = JSON.parse(line.slice('HEARTH_READY '.length)) as { url: string; ownerToken: string };
      resolvePromise({ child, url: ready.url, token: ready.ownerToken });
    });
    child.once('exit', (code) => reject(new Error(`hub exited with ${code} before it was ready`)));
  });
}
