import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HubConfig } from '../config';
import { type Hub, startHub } from '../server';

export interface TestHub {
  hub: Hub;
  url: string;
  /** Owner personal access token with every scope; `call` uses it unless told otherwise. */
  token: string;
  /** Calls the hub over real HTTP; answers status, headers and the decoded JSON body. */
  call(method: string, path: string, options?: { token?: string | null; body?: unknown }): Promise<TestAnswer>;
  stop(): Promise<void>;
}

export interface TestAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON answers
  body: any;
}

/** Starts a real hub on a free loopback port with a throw-away data directory. */
export async function startTestHub(overrides: Partial<HubConfig> = {}): Promise<TestHub> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'hearth-hub-'));
  const hub = await startHub({
    id: '0123456789abcdef01234567',
    name: 'Test hub',
    model: 'hearth-pro-5q',
    host: '127.0.0.1',
    port: 0,
    softwareVersion: '12.4.0',
    language: 'en',
    cloudUrl: null,
    logLevel: 'silent',
    ...overrides,
    dataDir,
  });
  const testHub: TestHub = {
    hub,
    url: hub.url,
    token: hub.issueOwnerToken(),
    async call(method, path, options = {}) {
      const bearer = options.token === undefined ? testHub.token : options.token;
      const headers: Record<string, string> = { 'x-homey-id': hub.context.config.id };
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      let body: string | undefined;
      if (options.body !== undefined || method === 'POST' || method === 'PUT') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body ?? {});
      }
      const response = await fetch(`${hub.url}${path}`, { method, headers, body });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      await hub.stop();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testHub;
}
