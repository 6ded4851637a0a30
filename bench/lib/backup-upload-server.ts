// Child process of the backup upload benchmark: the real cloud (PGlite, blobs in a temporary folder) and, in the
// same process, a bare Node HTTP route that streams a body through SHA-256 to a file, the least a streaming upload
// can cost (the baseline), and one that holds the whole body first (what the measure must catch). Reports addresses and a fresh upload link per request over IPC; `--expose-gc` lets the
// parent settle the heap before each measurement.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { hubSecret } from '@hearth/contract/hub-secret';
import { startBenchCloud } from './bench-cloud';

const HUB = '5ea7c0de00000000000000a1';
const DEMO_USER = '5ea7c0de0000000000000001';
const INTERNAL = randomBytes(24).toString('hex');
const { cloud } = await startBenchCloud({
  internalClientSecret: INTERNAL,
  demoHubs: [{ id: HUB, name: 'Home', model: 'hearth-pro-5q', url: 'http://127.0.0.1:4100' }],
});
const secret = encodeURIComponent(hubSecret(INTERNAL, HUB));

const bareDir = mkdtempSync(join(tmpdir(), 'hearth-bench-bare-'));
const bare = createServer((request, response) => {
  if (request.url === '/bare/buffer') {
    // What the measure must catch: a route holding the whole body before storing it.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const whole = Buffer.concat(chunks);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ size: whole.length, hash: createHash('sha256').update(whole).digest('hex') }));
    });
    return;
  }
  const hash = createHash('sha256');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const file = join(bareDir, randomBytes(8).toString('hex'));
  pipeline(request, measure, createWriteStream(file)).then(
    () => {
      rmSync(file, { force: true });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ size, hash: hash.digest('hex') }));
    },
    () => response.writeHead(500).end(),
  );
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const address = bare.address();
const barePort = typeof address === 'object' && address ? address.port : 0;

/** Starts a backup of the demo hub and answers the local address of its upload link and its id. */
async function newUpload() {
  const answer = await fetch(`${cloud.url}/backup/user/${DEMO_USER}/homey/${HUB}?secret=${secret}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const backup = (await answer.json()) as { _id: string; url: string };
  const link = new URL(backup.url);
  return { id: backup._id, url: `${cloud.url}${link.pathname}${link.search}` };
}

process.on('message', async (message: { kind: string; id?: string; size?: number; hash?: string }) => {
  if (message.kind === 'gc') {
    globalThis.gc?.();
    process.send?.({ kind: 'gc' });
  } else if (message.kind === 'upload') {
    process.send?.({ kind: 'upload', ...(await newUpload()) });
  } else if (message.kind === 'complete') {
    const answer = await fetch(
      `${cloud.url}/backup/user/${DEMO_USER}/homey/${HUB}/backup/${message.id}/complete?secret=${secret}`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ size: message.size, hash: message.hash }),
      },
    );
    process.send?.({ kind: 'complete', status: answer.status });
  }
});
process.send?.({ kind: 'ready', bareUrl: `http://127.0.0.1:${barePort}/bare/upload` });
process.on('disconnect', () => {
  bare.close();
  rmSync(bareDir, { recursive: true, force: true });
  cloud.stop().finally(() => process.exit(0));
});
