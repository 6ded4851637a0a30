import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HUB_SOFTWARE_VERSION, type HubConfig } from '../config';
import { type Hub, startHub } from '../server';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A real hub on a free loopback port with a temporary data dir, and an owner token to call it with. */
export interface TestHub {
  hub: Hub;
  token: string;
  dataDir: string;
  /** Calls `/api/manager/<manager><path>` over real HTTP as the owner (or with `token`). */
  call<T = unknown>(method: string, path: string, body?: unknown, token?: string | null): Promise<Answer<T>>;
  stop(): Promise<void>;
}

export async function startTestHub(overrides: Partial<HubConfig> = {}): Promise<TestHub> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'hearth-hub-'));
  const hub = await startHub({
    id: randomBytes(12).toString('hex'),
    name: 'Test hub',
    model: 'hearth-pro-5q',
    host: '127.0.0.1',
    port: 0,
    softwareVersion: HUB_SOFTWARE_VERSION,
    language: 'en',
    cloudUrl: null,
    logLevel: 'silent',
    ...overrides,
    dataDir,
  });
  const token = hub.issueOwnerToken();
  return {
    hub,
    token,
    dataDir,
    async call<T>(method: string, path: string, body?: unknown, as: string | null = token) {
      const headers: Record<string, string> = { 'X-Homey-ID': hub.context.config.id };
      if (as) headers.authorization = `Bearer ${as}`;
      let payload: string | undefined;
      if (method === 'POST' || method === 'PUT') {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body ?? {});
      }
      const response = await fetch(`${hub.url}/api/manager${path}`, { method, headers, body: payload });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
    },
    async stop() {
      await hub.stop();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
