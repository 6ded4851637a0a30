// The MQTT benchmarks' broker: a Mosquitto of their own on a free loopback port.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts Mosquitto (Debian's `/usr/sbin/mosquitto` when there, else the `mosquitto` on the PATH) on a free loopback port with Nagle off (`set_tcp_nodelay`: Debian's
 * default leaves it on, which holds every small packet for the client's 40 ms delayed ACK); answers its URL. It ends
 * with this process.
 */
export async function startMosquitto(): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-mqtt-'));
  const conf = join(dir, 'mosquitto.conf');
  // max_queued_messages 0: no cap on what waits for a slow subscriber, so a burst is delivered, never dropped.
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\npersistence false\nmax_queued_messages 0\n`,
  );
  const binary = ['/usr/sbin/mosquitto', '/usr/local/sbin/mosquitto'].find((path) => existsSync(path)) ?? 'mosquitto';
  const broker = spawn(binary, ['-c', conf], { stdio: 'ignore' });
  process.once('exit', () => {
    broker.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  for (let tries = 0; tries < 100; tries++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).once('error', () => resolve(false));
    });
    if (up) return `mqtt://127.0.0.1:${port}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('mosquitto did not start (is it installed? or set BENCH_MQTT_URL)');
}
