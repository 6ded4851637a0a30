import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Hub, type HubConfig, startHub } from '@hearth/hub';

export const HUB_ID = '0123456789abcdef01234567';

export interface RunningHub {
  hub: Hub;
  url: string;
  token: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the real hub on a free loopback port with a throw-away data directory and an owner PAT. */
export async function startRealHub(
  overrides: Partial<HubConfig> = {},
  options: { issueToken?: boolean } = {},
): Promise<RunningHub> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'hearth-client-hub-'));
  const hub = await startHub(
    {
      id: HUB_ID,
      name: 'Client test hub',
      model: 'hearth-pro-5q',
      host: '127.0.0.1',
      port: 0,
      softwareVersion: '12.4.0',
      language: 'en',
      cloudUrl: null,
      logLevel: 'silent',
      ...overrides,
      dataDir,
    },
    // Every wire event the client tests see is checked against the contract's declaration.
    { checkWireEvents: true },
  );
  return {
    hub,
    url: hub.url,
    // Issuing revokes the previous owner token: a restarted hub keeps the one its clients hold.
    token: options.issueToken === false ? '' : hub.issueOwnerToken(),
    dataDir,
    async stop() {
      await hub.stop();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
      const { violations } = hub.context.events;
      if (violations.length > 0) throw new Error(`Wire events the contract does not declare:\n- ${violations.join('\n- ')}`);
    },
  };
}

export interface TinyServer {
  url: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

/**
 * A tiny real HTTP server on loopback for the addresses the hub cannot play: slow, dead, not a hub, or
 * answering what a broken server would.
 */
export async function startTinyServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TinyServer> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback address where nothing listens. */
export async function deadAddress(): Promise<string> {
  const server = await startTinyServer(() => {});
  await server.close();
  return server.url;
}
