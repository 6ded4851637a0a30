import type { Cloud } from '@hearth/cloud';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startRelayedHub } from '../testing/cloud';
import type { TestHub } from '../testing/hub';

// Caps small enough for a test to reach: 4 sockets per hub, 2 per address; the requests' streams are far more.
const BUDGETS = { maxStreams: 3, maxUpgrades: 4, upgradesPerAddress: 2 };
/** How long the hub lets a realtime connection stay open without proving who it is. */
const PROOF_DEADLINE_MS = 1500;
const SECRET = 'relay-upgrade-test-secret-0123';
const HUB_ID = 'abcdef0123456789abcdef02';
const OWNER = '198.51.100.200';
let cloud: Cloud;
let t: TestHub;
let port: number;

resolveLocalhostNames();

beforeAll(async () => {
  ({
    cloud,
    hub: t,
    port,
  } = await startRelayedHub({
    id: HUB_ID,
    secret: SECRET,
    connect: BUDGETS,
    hub: { realtimeHandshakeDeadlineMs: PROOF_DEADLINE_MS },
  }));
});
afterAll(async () => {
  await t?.stop();
  await cloud?.stop();
});

/** What became of a WebSocket opened through the relay: upgraded (and then, perhaps, closed), or refused. */
interface Opened {
  socket: WebSocket;
  status: number;
  retryAfter: string | null;
  closed: Promise<void>;
}

/** Opens socket.io's WebSocket through the relay from `client`, as a browser does: no Authorization header. */
function openSocket(client: string): Promise<Opened> {
  const url = `ws://${HUB_ID}.connect.localhost:${port}/socket.io/?EIO=3&transport=websocket`;
  const socket = new WebSocket(url, { headers: { 'x-forwarded-for': client } });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  return new Promise((resolve) => {
    socket.once('open', () => resolve({ socket, status: 101, retryAfter: null, closed }));
    socket.once('unexpected-response', (_request, response) => {
      resolve({ socket, status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] ?? null, closed });
      response.resume();
    });
  });
}

/**
 * Proves who the socket is, as the ecosystem's clients do right after connecting (Engine.IO 3, whose server joins the
 * root namespace by itself): a `handshakeClient` with a token, answered by its ack.
 */
function prove(socket: WebSocket, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('431')) text.startsWith('431[null') ? resolve() : reject(new Error(text));
    });
    socket.send(`421${JSON.stringify(['handshakeClient', { token, homeyId: HUB_ID }])}`);
  });
}

const ownerCall = async () => {
  const response = await fetch(`http://${HUB_ID}.connect.localhost:${port}/api/manager/zones/zone`, {
    headers: { 'x-homey-id': HUB_ID, 'x-forwarded-for': OWNER, authorization: `Bearer ${t.token}` },
  });
  await response.arrayBuffer();
  return response.status;
};

it('holds sockets under caps of their own (per address, per hub) that never take the owners’ streams', async () => {
  const opened: Opened[] = [];
  try {
    // One address gets two; its third is refused with a wait.
    const open = async (client: string) => {
      const one = await openSocket(client);
      if (one.status === 101) await prove(one.socket, t.token);
      return one;
    };
    for (let i = 0; i < 3; i += 1) opened.push(await open('203.0.113.1'));
    expect(opened.map((o) => o.status)).toEqual([101, 101, 429]);
    expect(Number(opened[2]?.retryAfter)).toBeGreaterThan(0);
    // Others fill the hub's four; the fifth is refused.
    for (const client of ['203.0.113.2', '203.0.113.2', '203.0.113.3']) opened.push(await open(client));
    expect(opened.slice(3).map((o) => o.status)).toEqual([101, 101, 429]);
    // More sockets are open than the hub's whole cap on requests, and the owner's requests go through.
    expect(opened.filter((o) => o.status === 101)).toHaveLength(BUDGETS.maxUpgrades);
    expect(await Promise.all([ownerCall(), ownerCall(), ownerCall()])).toEqual([200, 200, 200]);
    // Proven sockets stay open past the hub's deadline.
    await new Promise((resolve) => setTimeout(resolve, PROOF_DEADLINE_MS + 500));
    expect(opened.filter((o) => o.status === 101 && o.socket.readyState === WebSocket.OPEN)).toHaveLength(BUDGETS.maxUpgrades);
  } finally {
    for (const { socket } of opened) socket.terminate();
  }
});

it('lets the hub close sockets that never prove who they are, which frees their room for others', async () => {
  // Once the first test's sockets are gone from the relay's count, four strangers take the hub's room.
  let strangers: Opened[] = [];
  await expect
    .poll(async () => {
      for (const { socket } of strangers) socket.terminate();
      strangers = await Promise.all(
        ['203.0.113.10', '203.0.113.11'].flatMap((client) => [openSocket(client), openSocket(client)]),
      );
      return strangers.map((o) => o.status);
    })
    .toEqual([101, 101, 101, 101]);
  expect((await openSocket('203.0.113.12')).status).toBe(429);
  // Saying nothing, they are closed by the hub once its deadline passes.
  const began = Date.now();
  await Promise.all(strangers.map((o) => o.closed));
  expect(Date.now() - began).toBeLessThan(PROOF_DEADLINE_MS + 5000);
  // Their room is free again.
  await expect
    .poll(async () => {
      const next = await openSocket('203.0.113.12');
      next.socket.terminate();
      return next.status;
    })
    .toBe(101);
});
