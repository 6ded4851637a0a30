// Issue 20 benchmark: resident memory of the cloud while a hub uploads a 200 MB backup archive. The cloud streams
// the upload to its blob store, hashing it on the way, never holding it whole: its RSS must grow by less than 30 MB.
// The baseline, measured in the same process and run, is a bare Node HTTP route streaming the same body through
// SHA-256 to a file; a route holding the whole body shows what the measure catches. Run: npx tsx bench/backup-upload.ts (BENCH_UPLOAD_MB to change the size).
import { fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssMb } from './lib/memory';
import { fmt, line } from './lib/report';

const here = dirname(fileURLToPath(import.meta.url));
const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const CHUNK = 256 * 1024;

const child = fork(join(here, 'lib', 'backup-upload-server.ts'), [], {
  execArgv: ['--import', 'tsx', '--expose-gc'],
  stdio: 'inherit',
});
const messages: ((message: Record<string, unknown>) => void)[] = [];
child.on('message', (message) => messages.shift()?.(message as Record<string, unknown>));
const next = () => new Promise<Record<string, unknown>>((resolve) => messages.push(resolve));
const ask = (message: object) => {
  const answer = next();
  child.send(message);
  return answer;
};
const { bareUrl } = (await next()) as { bareUrl: string };
const pid = child.pid as number;

/** A body of `mb` megabytes made as it is sent (a few random chunks repeated): the sender holds no archive either. */
function body(mb: number) {
  const pieces = Array.from({ length: 8 }, () => randomBytes(CHUNK));
  const hash = createHash('sha256');
  let sent = 0;
  const total = mb * 1024 * 1024;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const piece = pieces[(sent / CHUNK) % pieces.length] as Buffer;
      hash.update(piece);
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
  return { stream, size: total, hash: () => hash.digest('hex') };
}

/** Uploads `mb` megabytes to `url` while sampling the server's RSS; answers the growth over the RSS before it. */
async function upload(url: string, mb: number) {
  await ask({ kind: 'gc' });
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 10);
  const started = performance.now();
  const sent = body(mb);
  const answer = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: sent.stream,
    duplex: 'half',
  } as RequestInit);
  const received = (await answer.json()) as { size: number; hash: string };
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  const hash = sent.hash();
  if (answer.status !== 200 || received.hash !== hash || received.size !== sent.size)
    throw new Error(`${url}: answered ${answer.status} ${JSON.stringify(received)}, sent ${sent.size} bytes ${hash}`);
  return { before, peak, growth: peak - before, rate: mb / seconds, hash, size: sent.size };
}

console.log(`PUT of a ${megabytes} MB backup archive, the server process's resident memory sampled every 10 ms`);
// Warm both routes up (code compiled, buffers pooled) before measuring.
await upload(bareUrl, 8);
const warm = (await ask({ kind: 'upload' })) as { url: string };
await upload(warm.url, 8);

const baseline = await upload(bareUrl, megabytes);
const target = (await ask({ kind: 'upload' })) as { id: string; url: string };
const cloud = await upload(target.url, megabytes);
const completed = (await ask({ kind: 'complete', id: target.id, size: cloud.size, hash: cloud.hash })) as { status: number };
if (completed.status !== 200) throw new Error(`setBackupComplete answered ${completed.status}`);
// Last: the memory it frees stays resident and would hide growth measured after it.
const buffering = await upload(bareUrl.replace('/bare/upload', '/bare/buffer'), megabytes);

line(
  'bare streaming route (baseline)',
  `RSS ${fmt(baseline.before)} → ${fmt(baseline.peak)} MB, +${fmt(baseline.growth)} MB, ${fmt(baseline.rate, 0)} MB/s`,
);
line(
  'bare route holding the whole body (control)',
  `RSS ${fmt(buffering.before)} → ${fmt(buffering.peak)} MB, +${fmt(buffering.growth)} MB`,
);
line(
  'cloud uploadBackup',
  `RSS ${fmt(cloud.before)} → ${fmt(cloud.peak)} MB, +${fmt(cloud.growth)} MB, ${fmt(cloud.rate, 0)} MB/s`,
  {
    text: '< 30 MB growth',
    met: cloud.growth < 30,
  },
);
line('cloud growth − baseline growth', `${fmt(cloud.growth - baseline.growth)} MB`);
line('cloud throughput / baseline', `${fmt((cloud.rate / baseline.rate) * 100)} %`);
line('archive completed (size and SHA-256 checked)', `${completed.status}`);
child.disconnect();
await new Promise((resolve) => child.once('exit', resolve));
