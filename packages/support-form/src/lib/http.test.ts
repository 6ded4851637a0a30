import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, request } from './http';

/** `request` against a real HTTP server on loopback. */
describe('request', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 2000);
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/fails') {
        res.writeHead(409, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: 'conflict', error_description: 'Already there' }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error as HttpError,
    );

  it('answers the parsed body, or nothing for 204', async () => {
    expect(await request(`${base}/ok`)).toEqual({ ok: true });
    expect(await request(`${base}/empty`)).toBeUndefined();
  });

  it('throws the server error with its status, message and code', async () => {
    const error = await failure(request(`${base}/fails`));
    expect(error).toBeInstanceOf(HttpError);
    expect([error.status, error.message, error.code]).toEqual([409, 'Already there', 'conflict']);
  });

  it('reports an unreachable server as offline (500) and a slow one as a timeout (408)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const offline = await failure(request(`http://127.0.0.1:${port}/`));
    expect([offline.status, offline.code]).toEqual([500, 'offline']);
    const slow = await failure(request(`${base}/slow`, { timeoutMs: 100 }));
    expect([slow.status, slow.code]).toEqual([408, 'timeout']);
  });
});
