import { connect as connectTcp, type Socket } from 'node:net';
import type { Cloud } from '@hearth/cloud';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelayedHub } from '../testing/cloud';
import type { TestHub } from '../testing/hub';

// Budgets small enough that a flood of a few hundred requests reaches them (the defaults are in the thousands).
const BUDGETS = {
  requestsPerMinute: 150,
  maxStreams: 30,
  anonymousPerAddressPerMinute: 20,
  anonymousPerMinute: 100,
  anonymousMaxStreams: 10,
  bodyTimeoutMs: 600,
};
const SECRET = 'relay-budget-test-secret-01234';
const HUB_ID = 'abcdef0123456789abcdef01';
const OWNER = '198.51.100.200';
/** Requests with a silent body the first test opens, each counted on the hub's anonymous budget. */
const STALLED = 40;
let cloud: Cloud;
let t: TestHub;
let relayUrl: string;
let port: number;

resolveLocalhostNames();

beforeAll(async () => {
  ({ cloud, hub: t, port, relayUrl } = await startRelayedHub({ id: HUB_ID, secret: SECRET, connect: BUDGETS }));
});
afterAll(async () => {
  await t?.stop();
  await cloud?.stop();
});

/** A GET through the relay from `client` (its address behind the trusted proxy), with `token` when given. */
async function relayed(path: string, client: string, token: string | null) {
  const headers: Record<string, string> = { 'x-homey-id': HUB_ID, 'x-forwarded-for': client };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${relayUrl}/api/manager${path}`, { headers });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

const ownerCall = () => relayed('/zones/zone', OWNER, t.token);

// First: the floods below use up the hub's anonymous budget for the minute.
/** Opens a request announcing a 1 MB body it never sends; resolves with the status line it gets, if any. */
function stalledBody(client: string): { socket: Socket; answer: Promise<string> } {
  const socket = connectTcp(port, '127.0.0.1');
  socket.write(
    `POST /api/manager/zones/zone HTTP/1.1\r\nHost: ${HUB_ID}.connect.localhost:${port}\r\nX-Forwarded-For: ${client}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"name":',
  );
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) resolve(text.split('\r\n')[0] as string);
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
  });
  return { socket, answer };
}

it('cuts silent bodies with a body timeout, and stalled requests never hold the owner’s share of the hub', async () => {
  // More stalled requests than the hub's whole cap on open requests, each from its own address.
  const stalled = Array.from({ length: STALLED }, (_, i) => stalledBody(`192.0.2.${100 + i}`));
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await ownerCall()).status).toBe(200);
    const answers = await Promise.all(stalled.map((s) => s.answer));
    // Those within the anonymous cap were cut by the body timeout (408); the others were refused at once (429).
    expect(answers.filter((line) => / 408 /.test(line)).length).toBe(BUDGETS.anonymousMaxStreams);
    expect(answers.filter((line) => / 429 /.test(line)).length).toBe(STALLED - BUDGETS.anonymousMaxStreams);
    expect((await ownerCall()).status).toBe(200);
  } finally {
    for (const { socket } of stalled) socket.destroy();
  }
});

it('gives anonymous traffic its own budget per address and per hub: a flood of pings leaves the owner answered', async () => {
  // 200 anonymous pings from 10 addresses: more than the hub's whole budget of 150 a minute.
  const flood = await Promise.all(
    Array.from({ length: 200 }, (_, i) => relayed(`/system/ping?id=${HUB_ID}`, `203.0.113.${i % 10}`, null)),
  );
  const refused = flood.filter((answer) => answer.status === 429);
  // Each address gets 20, the hub 100 from everyone anonymous together, of which the stalled requests above took theirs.
  const left = BUDGETS.anonymousPerMinute - STALLED;
  expect(flood.filter((answer) => answer.status === 200)).toHaveLength(left);
  expect(refused).toHaveLength(200 - left);
  for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  // A fresh stranger is over the hub's anonymous budget too; the owner, with a token, is not.
  expect((await relayed(`/system/ping?id=${HUB_ID}`, '192.0.2.77', null)).status).toBe(429);
  expect((await ownerCall()).status).toBe(200);
});

it('charges requests the hub refuses for their token to the sender’s anonymous budget', async () => {
  const forger = '203.0.113.99';
  const forged = await Promise.all(Array.from({ length: 80 }, () => relayed('/zones/zone', forger, 'not-a-token')));
  const statuses = new Set(forged.map((answer) => answer.status));
  expect([...statuses].sort()).toEqual([401, 429]);
  expect(forged.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(BUDGETS.anonymousPerAddressPerMinute + 10);
  for (const answer of forged.filter((a) => a.status === 429)) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  // Later forged calls from that address are refused before they reach the hub, still with Retry-After.
  const later = await relayed('/zones/zone', forger, 'not-a-token');
  expect(later.status).toBe(429);
  expect(Number(later.retryAfter)).toBeGreaterThan(0);
  expect((await ownerCall()).status).toBe(200);
});
