import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEVKIT_RUN_TIMEOUT_MS } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubAPI, TimeoutError } from '../node';

const HUB_ID = '5ea7c0de00000000000000c1';

describe('call timeouts', () => {
  let server: Server;
  let api: HubAPI;

  beforeAll(async () => {
    // A hub that takes 400 ms over every answer, like one unpacking and starting an app.
    server = createServer((request, response) => {
      setTimeout(() => {
        response.setHeader('content-type', 'application/json');
        response.setHeader('x-homey-id', HUB_ID);
        const run = request.url === '/api/manager/devkit/app';
        response.end(
          JSON.stringify(run ? { sessionId: 'session-1', appId: 'com.example', origin: 'devkit_run' } : { sessions: 0 }),
        );
      }, 400);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    api = new HubAPI({ id: HUB_ID, baseUrl: `http://127.0.0.1:${port}`, token: 'token', timeout: 150, reconnect: false });
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('waits as long as a devkit run may take, and the usual timeout for other calls', async () => {
    expect(DEVKIT_RUN_TIMEOUT_MS).toBe(300_000);
    await expect(api.devkit.installApp({ manifest: { id: 'com.example' } })).resolves.toMatchObject({ sessionId: 'session-1' });
    await expect(api.devkit.getState()).rejects.toBeInstanceOf(TimeoutError);
  });
});
