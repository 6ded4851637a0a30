// Child process of the devices benchmark: a real hub with one paired light and an insights log of
// 1,000,000 entries, and, in the same process, a bare Fastify server whose routes write and read one SQLite
// row of the same size (the baseline). Reports its addresses to the parent over IPC.
import Fastify from 'fastify';
import { openDurableBaseline, startBenchHub } from './bench-hub';

const ENTRIES = Number(process.env.BENCH_INSIGHTS_ENTRIES ?? 1_000_000);
const { hub, dataDir } = await startBenchHub('be0c4000000000000000de0c');
const token = hub.issueOwnerToken();
const runtime = hub.services;
const driver = runtime.apps.findDriver('homey:app:com.hearth.virtual:zigbee');
if (!driver) throw new Error('the built-in zigbee driver is missing');
const light = runtime.devices.create(driver, { name: 'Bench light', data: { id: 'bench-light' } });
for (let i = 0; i < 200 && !runtime.apps.isRunning('com.hearth.virtual'); i++) await new Promise((r) => setTimeout(r, 10));

// Insights: one log with ENTRIES entries spread evenly over the last two years (about one a minute), and a
// second log with ENTRIES entries all inside the last seven days (the worst case for a 7-day query).
const sensor = runtime.devices.create(runtime.apps.findDriver('homey:app:com.hearth.virtual:matter')!, {
  name: 'Bench thermostat',
  data: { id: 'bench-t' },
});
const now = Date.now();
const spread = (window: number) => {
  const step = window / ENTRIES;
  const entries: { t: number; v: number }[] = [];
  for (let i = 0; i < ENTRIES; i++) entries.push({ t: Math.round(now - window + i * step), v: 20 + Math.sin(i / 500) * 3 });
  return entries;
};
runtime.insights.appendHistory(`homey:device:${sensor.id}`, 'measure_temperature', spread(730 * 86_400_000));
runtime.insights.appendHistory(`homey:device:${sensor.id}`, 'measure_humidity', spread(7 * 86_400_000));

// The baseline: a bare Fastify route writing the same capability row to SQLite (WAL, each commit synced to
// disk, as the hub's acknowledged writes are) and a route reading it back.
const bareDb = openDurableBaseline(dataDir);
bareDb.exec(
  'CREATE TABLE value (device_id TEXT, capability_id TEXT, value TEXT, last_updated INTEGER, PRIMARY KEY (device_id, capability_id)) WITHOUT ROWID',
);
bareDb.prepare('INSERT INTO value VALUES (?, ?, ?, ?)').run(light.id, 'dim', '1', Date.now());
const write = bareDb.prepare('UPDATE value SET value = ?, last_updated = ? WHERE device_id = ? AND capability_id = ?');
const read = bareDb.prepare('SELECT value FROM value WHERE device_id = ? AND capability_id = ?').pluck();
const bare = Fastify({ logger: false });
bare.put('/bare/device/:id/capability/:capability', (request, reply) => {
  const { value } = request.body as { value?: unknown };
  if (typeof value !== 'number') return reply.status(400).send({ error: 'bad' });
  const { id, capability } = request.params as { id: string; capability: string };
  write.run(JSON.stringify(value), Date.now(), id, capability);
  reply.status(204).send();
});
bare.get('/bare/device/:id/capability/:capability', (request, reply) => {
  const { id, capability } = request.params as { id: string; capability: string };
  reply.type('application/json; charset=utf-8').send(read.get(id, capability) as string);
});
await bare.listen({ host: '127.0.0.1', port: 0 });
const address = bare.server.address();

process.send?.({
  hubUrl: hub.url,
  bareUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  token,
  hubId: hub.context.config.id,
  lightId: light.id,
  sensorId: sensor.id,
  entries: ENTRIES,
});
process.on('disconnect', () => {
  Promise.all([hub.stop(), bare.close()]).finally(() => process.exit(0));
});
