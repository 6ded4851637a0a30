import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOAD_TEST_RATE_LIMITS } from '@hearth/contract/testing';
import { HUB_SOFTWARE_VERSION, type HubConfig } from '../config';
import type { UserRole } from '../platform/identity/users';
import { type Hub, type HubOptions, startHub } from '../server';

/** An answer of the hub over real HTTP. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A real hub on a free loopback port with a throw-away data directory, for tests. */
export interface TestHub {
  hub: Hub;
  url: string;
  dataDir: string;
  /** An owner personal access token with no scopes set; `call` uses it unless told otherwise. */
  token: string;
  /** Calls `/api/manager<path>` over real HTTP with `token` (the owner's by default; `null` for none). */
  call<T = unknown>(method: string, path: string, body?: unknown, token?: string | null): Promise<Answer<T>>;
  /** Creates a user of `role` and a session for them with `scopes` (`null`: none set); answers its token. */
  sessionFor(role: UserRole, scopes?: string[] | null, options?: { type?: 'OAUTH' | 'APP' | 'PAT'; expiresAt?: string }): string;
  /** Stops the hub; fails when a wire event it published broke the contract's declaration. */
  stop(): Promise<void>;
}

export async function startTestHub(overrides: Partial<HubConfig> = {}, options: HubOptions = {}): Promise<TestHub> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'hearth-hub-'));
  const hub = await startHub(
    {
      id: randomBytes(12).toString('hex'),
      name: 'Test hub',
      model: 'hearth-pro-5q',
      host: '127.0.0.1',
      port: 0,
      softwareVersion: HUB_SOFTWARE_VERSION,
      language: 'en',
      cloudUrl: null,
      logLevel: 'silent',
      // Suites send thousands of calls a minute with one token; the suites of the limits set their own.
      rateLimits: LOAD_TEST_RATE_LIMITS,
      ...overrides,
      dataDir,
    },
    { checkWireEvents: true, ...options },
  );
  const testHub: TestHub = {
    hub,
    url: hub.url,
    dataDir,
    token: hub.issueOwnerToken(),
    async call<T>(method: string, path: string, body?: unknown, token: string | null = testHub.token) {
      const headers: Record<string, string> = { 'X-Homey-ID': hub.context.config.id };
      if (token) headers.authorization = `Bearer ${token}`;
      let payload: string | undefined;
      if (method === 'POST' || method === 'PUT') {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body ?? {});
      }
      const response = await fetch(`${hub.url}/api/manager${path}`, { method, headers, body: payload });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
    },
    sessionFor(role, scopes = null, options = {}) {
      const { users, sessions } = hub.context;
      const user = role === 'owner' ? users.owner()! : users.create({ name: `A ${role}`, role });
      return sessions.create({ type: options.type ?? 'OAUTH', userId: user.id, scopes, expiresAt: options.expiresAt ?? null })
        .token;
    },
    async stop() {
      await hub.stop();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
      // Every wire event the test set off was checked against the contract as it was published.
      const { violations } = hub.context.events;
      if (violations.length > 0) throw new Error(`Wire events the contract does not declare:\n- ${violations.join('\n- ')}`);
    },
  };
  return testHub;
}
