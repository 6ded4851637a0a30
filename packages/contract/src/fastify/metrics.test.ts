import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from './index';

const TOKEN = 'metrics-token-0123456789abcdef';

/** This machine's first address that is not loopback: requests to it arrive from a non-loopback peer. */
function externalAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
  if (!address) throw new Error('This test needs a network interface other than loopback');
  return address;
}

async function startServer(metricsToken: string | null): Promise<{ app: FastifyInstance; port: number }> {
  const app = await createApiServer({ title: 'test', version: '1.0.0', description: 'metrics access', metricsToken });
  await app.listen({ host: '0.0.0.0', port: 0 });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address ? address.port : 0 };
}

const read = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
};

describe('/metrics without a metrics token', () => {
  let server: { app: FastifyInstance; port: number };
  beforeAll(async () => {
    server = await startServer(null);
  });
  afterAll(() => server.app.close());

  it('serves direct requests from loopback', async () => {
    const answer = await read(`http://127.0.0.1:${server.port}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('hearth_process_cpu_user_seconds_total');
  });

  it('refuses requests from another address with the uniform body', async () => {
    const answer = await read(`http://${externalAddress()}:${server.port}/metrics`);
    expect(answer.status).toBe(403);
    expect(answer.json()).toMatchObject({ error: 'forbidden', statusCode: 403 });
    expect(answer.text).not.toContain('process_cpu');
  });

  it('refuses requests a proxy on this machine forwarded', async () => {
    const headers: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }];
    for (const header of headers) {
      const answer = await read(`http://127.0.0.1:${server.port}/metrics`, header);
      expect(answer.status).toBe(403);
      expect(answer.json()).toMatchObject({ error: 'forbidden' });
    }
  });

  it('refuses a bearer token when none is configured', async () => {
    const answer = await read(`http://${externalAddress()}:${server.port}/metrics`, { authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(403);
  });
});

describe('/metrics with a metrics token', () => {
  let server: { app: FastifyInstance; port: number };
  beforeAll(async () => {
    server = await startServer(TOKEN);
  });
  afterAll(() => server.app.close());

  it('serves another address that sends the token', async () => {
    const answer = await read(`http://${externalAddress()}:${server.port}/metrics`, { authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('hearth_http_request_duration_seconds');
  });

  it('answers 401 to another address without the token or with a wrong one', async () => {
    const none = await read(`http://${externalAddress()}:${server.port}/metrics`);
    expect(none.status).toBe(401);
    expect(none.json()).toMatchObject({ error: 'missing_token', statusCode: 401 });
    const wrong = await read(`http://${externalAddress()}:${server.port}/metrics`, { authorization: `Bearer ${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'invalid_token' });
    const forwarded = await read(`http://127.0.0.1:${server.port}/metrics`, { 'x-forwarded-for': '203.0.113.9' });
    expect(forwarded.status).toBe(401);
  });

  it('still serves loopback without the token', async () => {
    expect((await read(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(200);
  });
});
