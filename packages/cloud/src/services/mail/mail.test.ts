import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, internalToken, readJson, startTestCloud } from '../../testing';
import { SmtpSink } from './sink';

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const mail = { to: 'someone@hearth.test', subject: 'Hello', body: 'A message.' };

describe('mail through an SMTP server that fails', () => {
  describe('nothing listens at the SMTP address', () => {
    let cloud: Cloud;
    let internal: string;
    beforeAll(async () => {
      cloud = await startTestCloud('pglite', { smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
      internal = await internalToken(cloud);
    });
    afterAll(() => cloud.stop());

    it('answers 503 unavailable with a clear message, not a 500', async () => {
      const response = await call(cloud, 'POST', '/cloud/mail/formatted', internal, mail);
      expect(response.status).toBe(503);
      expect(await readJson(response)).toMatchObject({
        error: 'unavailable',
        error_description: 'The mail server could not be reached; the e-mail was not sent',
      });
    });
  });

  describe('a working configured SMTP server', () => {
    const sink = new SmtpSink();
    let cloud: Cloud;
    let internal: string;
    beforeAll(async () => {
      const { host, port } = await sink.start();
      cloud = await startTestCloud('pglite', { smtpUrl: `smtp://${host}:${port}` });
      internal = await internalToken(cloud);
    });
    afterAll(async () => {
      await cloud.stop();
      await sink.stop();
    });

    it('sends through the configured server (url and timeouts together)', async () => {
      const response = await call(cloud, 'POST', '/cloud/mail/formatted', internal, mail);
      expect(response.status).toBe(200);
      const received = await sink.waitFor((m) => m.subject === 'Hello');
      expect(received.to).toEqual(['someone@hearth.test']);
      expect(received.text).toContain('A message.');
    });
  });

  describe('a server that accepts the connection and never greets', () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    let cloud: Cloud;
    let internal: string;
    beforeAll(async () => {
      silent = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      cloud = await startTestCloud('pglite', { smtpUrl: `smtp://127.0.0.1:${port}` });
      internal = await internalToken(cloud);
    });
    afterAll(async () => {
      await cloud.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('gives up after the greeting timeout with 503 instead of holding the request', async () => {
      const started = Date.now();
      const response = await call(cloud, 'POST', '/cloud/mail/formatted', internal, mail);
      expect(response.status).toBe(503);
      expect((await readJson(response)).error).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(20_000);
    }, 30_000);
  });
});
