// Child process of the hub benchmarks: a real hub and, in the same process, a bare Fastify server that
// answers the same bytes (the baseline). Reports its addresses to the parent over IPC.
import Fastify from 'fastify';
import { openDurableBaseline, startBenchHub } from './bench-hub';

const zoneCount = Number(process.env.BENCH_ZONES ?? 200);
// The relay benchmark runs this hub with a cloud to tunnel to (BENCH_CLOUD_URL, BENCH_CLOUD_SECRET, BENCH_HUB_ID).
const cloud = process.env.BENCH_CLOUD_URL
  ? { cloudUrl: process.env.BENCH_CLOUD_URL, cloudClientSecret: process.env.BENCH_CLOUD_SECRET ?? null }
  : {};
const { hub, dataDir } = await startBenchHub(process.env.BENCH_HUB_ID ?? 'be0c4000000000000000be0c', cloud);
const token = hub.issueOwnerToken();
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const zones = (await hub.app.inject({ method: 'GET', url: '/api/manager/zones/zone', headers })).json() as Record<
  string,
  { id: string; parent: string | null }
>;
const root = Object.values(zones).find((zone) => zone.parent === null);
if (!root) throw new Error('hub has no root zone');
for (let i = zones ? Object.keys(zones).length : 0; i < zoneCount; i++) {
  const created = await hub.app.inject({
    method: 'POST',
    url: '/api/manager/zones/zone',
    headers,
    payload: { name: `Room ${i}`, icon: 'home', parent: root.id },
  });
  if (created.statusCode !== 200) throw new Error(`createZone answered ${created.statusCode}: ${created.body}`);
}
const listBytes = (await hub.app.inject({ method: 'GET', url: '/api/manager/zones/zone', headers })).body;
const target = Object.values(JSON.parse(listBytes) as Record<string, { id: string; parent: string | null }>).find(
  (z) => z.parent !== null,
);
if (!target) throw new Error('no zone to update');
const updateBytes = (
  await hub.app.inject({ method: 'PUT', url: `/api/manager/zones/zone/${target.id}`, headers, payload: { name: 'Bench room' } })
).body;

const bare = Fastify({ logger: false });
bare.get('/bare/zones', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(listBytes);
});
bare.put('/bare/zones/:id', (request, reply) => {
  if (typeof (request.body as { name?: unknown }).name !== 'string') return reply.status(400).send({ error: 'bad' });
  reply.type('application/json; charset=utf-8').send(updateBytes);
});
// The second PUT baseline: the same bare route plus the write a durable acknowledgement costs — the zone row
// updated in SQLite (WAL, each commit synced to disk before the answer), as issue 4's benchmark measures.
const bareDb = openDurableBaseline(dataDir);
bareDb.exec('CREATE TABLE zone (id TEXT PRIMARY KEY, json TEXT NOT NULL) WITHOUT ROWID');
bareDb.prepare('INSERT INTO zone VALUES (?, ?)').run(target.id, updateBytes);
const writeZone = bareDb.prepare('UPDATE zone SET json = ? WHERE id = ?');
const updated = JSON.parse(updateBytes) as Record<string, unknown>;
bare.put('/bare-durable/zones/:id', (request, reply) => {
  const { name } = request.body as { name?: unknown };
  if (typeof name !== 'string') return reply.status(400).send({ error: 'bad' });
  const zone = JSON.stringify({ ...updated, name });
  writeZone.run(zone, (request.params as { id: string }).id);
  reply.type('application/json; charset=utf-8').send(zone);
});
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = bare.server.address();
const barePort = typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0;

await (await hub.tunnel)?.whenConnected();
process.send?.({
  hubUrl: hub.url,
  bareUrl: `http://127.0.0.1:${barePort}`,
  token,
  hubId: hub.context.config.id,
  zoneId: target.id,
  zoneCount: Object.keys(JSON.parse(listBytes)).length,
  listBytes: listBytes.length,
});
process.on('disconnect', () => {
  Promise.all([hub.stop(), bare.close()]).finally(() => process.exit(0));
});
