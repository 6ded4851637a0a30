// Child process of the relay benchmark: the real cloud (embedded PGlite) with the bench hub registered, and as
// many more hubs as the tunnel-memory test opens tunnels for. Reports its address over IPC; answers `{ rss: true }`
// with its resident memory after a garbage collection (run with --expose-gc).
import { LOAD_TEST_RATE_LIMITS } from '@hearth/contract/testing';
import { startEmbeddedCloud } from '../../packages/hub/src/testing/cloud';
import { rssMb } from './memory';

const hubId = process.env.BENCH_HUB_ID ?? '';
const secret = process.env.BENCH_CLOUD_SECRET ?? '';
const simulated = Number(process.env.BENCH_TUNNELS ?? 1000);
// The hub tests' embedded cloud (PGlite in memory, silent, a free port), with the relay's budget out of the way.
const cloud = await startEmbeddedCloud({
  internalClientSecret: secret,
  rateLimits: LOAD_TEST_RATE_LIMITS,
  demoHubs: [{ id: hubId, name: 'Bench hub', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' }],
  connect: { requestsPerMinute: 1_000_000_000, maxStreams: 10_000 },
});
// The simulated hubs must be registered: the cloud refuses tunnels of hubs it does not know.
const ids = Array.from({ length: simulated }, (_, i) => `5a${i.toString(16).padStart(22, '0')}`);
const { db } = cloud.context.database;
for (let i = 0; i < ids.length; i += 200)
  await db
    .insertInto('hubs')
    .values(
      ids.slice(i, i + 200).map((id) => ({
        id,
        name: 'Simulated hub',
        model: 'hearth-pro-5q',
        platform: 'local',
        region: 'eu',
        software_version: '12.4.0',
        language: 'en',
        api_version: 3,
        licenses: '[]',
        notifications: '{"push":true,"email":true}',
        updated_at: new Date(),
      })) as never,
    )
    .execute();

process.send?.({ url: cloud.url, simulatedIds: ids });
process.on('message', (message: { rss?: boolean }) => {
  if (!message.rss) return;
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ rssMb: rssMb(process.pid) });
});
process.on('disconnect', () => {
  cloud.stop().finally(() => process.exit(0));
});
