// Child process of the cloud benchmark: the real cloud with the demo world and, in the same process, a bare
// Fastify route doing one indexed read of the same user row (the baseline). Reports addresses over IPC.
import Fastify from 'fastify';
import { startBenchCloud } from './bench-cloud';

const databaseUrl = process.env.BENCH_DATABASE_URL || null;
const { cloud, drop } = await startBenchCloud({
  databaseUrl,
  demoHubs: [{ id: '5ea7c0de00000000000000a1', name: 'Home', model: 'hearth-pro-5q', url: 'http://127.0.0.1:4100' }],
});

const form = new URLSearchParams({ grant_type: 'password', username: 'demo@hearth.test', password: 'hearth-demo-password' });
const tokenAnswer = await fetch(`${cloud.url}/cloud/oauth2/token`, {
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from('hearth-demo:hearth-demo-secret').toString('base64')}`,
  },
  body: form.toString().replace(/\+/g, '%20'),
});
const { access_token: accessToken } = (await tokenAnswer.json()) as { access_token: string };
if (!accessToken) throw new Error('no access token');
const { db } = cloud.context.database;
const user = await db.selectFrom('users').select('id').where('email', '=', 'demo@hearth.test').executeTakeFirstOrThrow();

const bare = Fastify({ logger: false });
bare.get('/bare/user', async () => db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow());
await bare.listen({ host: '127.0.0.1', port: 0 });
const address = bare.server.address();
process.send?.({
  cloudUrl: cloud.url,
  bareUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  accessToken,
  database: cloud.context.database.kind,
});
process.on('disconnect', () => {
  drop().finally(() => Promise.all([bare.close(), cloud.stop()]).finally(() => process.exit(0)));
});
