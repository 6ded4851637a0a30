// Issue 3 benchmark: one zone update delivered to 500 subscribed sockets. Prints p50/p99 delivery latency
// (from the moment the update is sent until each socket has the event) and, as the baseline from the same
// run, a bare socket.io server broadcasting the same payload to 500 sockets. Goal: hub p99 < 50 ms.
// Run: npx tsx bench/hub-realtime.ts
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import { Manager, type Socket } from 'socket.io-client';
import { fmt, line, percentile } from './lib/report';

const here = dirname(fileURLToPath(import.meta.url));
const clients = Number(process.env.BENCH_SOCKETS ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);

interface ServerInfo {
  hubUrl: string;
  token: string;
  hubId: string;
  zoneId: string;
}

const child = fork(join(here, 'lib', 'hub-server.ts'), [], {
  execArgv: ['--import', 'tsx'],
  stdio: 'inherit',
  env: { ...process.env, BENCH_ZONES: '5' },
});
const server = await new Promise<ServerInfo>((resolve, reject) => {
  child.once('message', (message) => resolve(message as ServerInfo));
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});

const ack = (socket: Socket, event: string, ...args: unknown[]) =>
  new Promise<unknown[]>((resolve) => socket.emit(event, ...args, (...answer: unknown[]) => resolve(answer)));
const connected = (socket: Socket) =>
  new Promise<void>((resolve, reject) =>
    socket.connected ? resolve() : socket.once('connect', () => resolve()).once('connect_error', reject),
  );

/** Opens `clients` sockets that handshake and subscribe like the ecosystem's client. */
async function hubSockets(): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < clients; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, clients - i) }, async () => {
        const manager = new Manager(server.hubUrl, { path: '/socket.io/', transports: ['websocket'] });
        const root = manager.socket('/');
        await connected(root);
        const [error] = await ack(root, 'handshakeClient', { token: server.token, homeyId: server.hubId });
        if (error) throw new Error(`handshake failed: ${JSON.stringify(error)}`);
        const api = manager.socket('/api');
        await connected(api);
        const [subscribeError] = await ack(api, 'subscribe', 'homey:manager:zones');
        if (subscribeError) throw new Error('subscribe failed');
        return api;
      }),
    );
    sockets.push(...batch);
  }
  return sockets;
}

/** Measures delivery of `rounds` events to every socket; `send` triggers one event. */
async function measure(sockets: Socket[], eventName: string, send: (round: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let pending = sockets.length;
    const started = performance.now();
    const done = new Promise<void>((resolve) => {
      for (const socket of sockets) {
        socket.once(eventName, () => {
          latencies.push(performance.now() - started);
          if (--pending === 0) resolve();
        });
      }
    });
    await send(round);
    await done;
  }
  return latencies.sort((a, b) => a - b);
}

// Baseline: a bare socket.io server in this process broadcasting the same-sized payload.
const httpServer = createServer();
const bareIo = new Server(httpServer, { path: '/socket.io/' });
await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
const barePort = (httpServer.address() as { port: number }).port;
const bareSockets: Socket[] = [];
for (let i = 0; i < clients; i++) {
  const socket = new Manager(`http://127.0.0.1:${barePort}`, { path: '/socket.io/', transports: ['websocket'] }).socket('/');
  bareSockets.push(socket);
}
await Promise.all(bareSockets.map(connected));
const zone = {
  id: server.zoneId,
  name: 'Bench room',
  order: 1,
  parent: 'root',
  active: false,
  activeLastUpdated: null,
  icon: 'home',
};
const bare = await measure(bareSockets, 'homey:manager:zones', async () => {
  bareIo.emit('homey:manager:zones', 'zone.update', zone);
});

const sockets = await hubSockets();
const hub = await measure(sockets, 'homey:manager:zones', async (round) => {
  const response = await fetch(`${server.hubUrl}/api/manager/zones/zone/${server.zoneId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Bench room ${round}` }),
  });
  if (!response.ok) throw new Error(`update failed: ${response.status}`);
});

console.log(`Realtime fan-out: one zone update to ${clients} subscribed sockets, ${rounds} rounds`);
line('bare socket.io broadcast (baseline) p50 / p99', `${fmt(percentile(bare, 50))} ms / ${fmt(percentile(bare, 99))} ms`);
const p99 = percentile(hub, 99);
line('hub: PUT zone → zone.update on every socket p50', `${fmt(percentile(hub, 50))} ms`);
line('hub: PUT zone → zone.update on every socket p99', `${fmt(p99)} ms`, { text: '< 50 ms', met: p99 < 50 });
line('hub p99 / baseline p99', `${fmt(p99 / percentile(bare, 99), 2)}×`);

for (const socket of [...sockets, ...bareSockets]) socket.io.engine?.close();
bareIo.close();
child.disconnect();
process.exit(0);
