import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { INTERNAL_SECRET } from '../../packages/cloud/src/testing';

const root = join(import.meta.dirname, '..', '..');

/** A real hub process (as `npm start` runs one) named `name`, registering with `cloudUrl`; answers it and the short claim code it prints. */
export async function startFreshHub(cloudUrl: string, port: number, name = 'Fresh hub') {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-account-hub-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/hub/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      HUB_ID: randomBytes(12).toString('hex'),
      HUB_NAME: name,
      HUB_MODEL: 'hearth-pro-mini-6q',
      HUB_PORT: String(port),
      HUB_MDNS: '0',
      HEARTH_DATA_DIR: dataDir,
      HEARTH_CLOUD_URL: cloudUrl,
      HEARTH_INTERNAL_CLIENT_SECRET: INTERNAL_SECRET,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const code = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the hub printed no claim code:\n${output}`)), 90_000);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      output += `${line}\n`;
      const match = /is not set up yet — claim it: code ([A-Z0-9]{4}-[A-Z0-9]{4}),/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', () => reject(new Error(`the hub exited:\n${output}`)));
  });
  return {
    code,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
