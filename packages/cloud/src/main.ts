import { cloudConfigFromEnv } from './config';
import { startCloud } from './server';
import { devMailboxUrl } from './services/mail/dev-mailbox';

/** Starts the cloud from environment variables (see the README) and prints a ready line for the orchestrator. */
const cloud = await startCloud(cloudConfigFromEnv()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

const ready = { kind: 'cloud', url: cloud.url, database: cloud.context.database.kind, mailbox: devMailboxUrl(cloud.context) };
console.log(`HEARTH_READY ${JSON.stringify(ready)}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    cloud.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
