import { HearthError, WEBHOOK_LIMITS, WEBHOOK_SIGNATURE_HEADER } from '@hearth/contract';
import { hubSecret, verifyWebhookDelivery } from '@hearth/contract/hub-secret';
import type { HubContext } from '../../platform/context';
import type { Migration } from '../../store/database';
import { transact } from '../../store/database';

export const cloudWebhookMigrations: Migration[] = [
  {
    id: 'cloud-001-webhook-deliveries',
    up: (db) => db.exec('CREATE TABLE cloud_webhook_delivery (id TEXT PRIMARY KEY, received_at INTEGER NOT NULL)'),
  },
];

/** Delivery ids are remembered this long: well past the cloud's last retry. */
const REMEMBER_MS = 2 * 24 * 3600 * 1000;

interface Delivery {
  id: string;
  webhookId: string;
  homeyId: string;
  data: Record<string, unknown>;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parse(text: string): Delivery {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (
    !isRecord(value) ||
    typeof value.id !== 'string' ||
    typeof value.webhookId !== 'string' ||
    typeof value.homeyId !== 'string' ||
    !isRecord(value.data) ||
    !isRecord(value.query) ||
    !isRecord(value.headers)
  )
    throw new HearthError('invalid_parameter', 'Invalid Parameter: delivery. Not a webhook delivery');
  return value as unknown as Delivery;
}

/**
 * Webhook calls the cloud delivers to this hub: the signature over the exact text is checked with the hub's
 * secret (only the cloud and this hub know it), an old signature is refused, and each delivery id is acted on
 * once, since the cloud retries until it sees a 2xx. Accepted deliveries go out on the bus as `cloud.webhook`.
 */
export function receiveCloudWebhook(context: HubContext, text: string, signature: string | undefined) {
  const { cloudClientSecret, id: hubId } = context.config;
  if (!cloudClientSecret) throw new HearthError('unavailable', 'This hub is not linked to a cloud');
  const now = context.clock.now();
  const signed =
    signature !== undefined &&
    verifyWebhookDelivery(
      hubSecret(cloudClientSecret, hubId),
      text,
      signature,
      Math.floor(now / 1000),
      WEBHOOK_LIMITS.signatureMaxAgeSeconds,
    );
  if (!signed) throw new HearthError('forbidden', `Invalid or expired ${WEBHOOK_SIGNATURE_HEADER}`);
  const delivery = parse(text);
  if (delivery.homeyId !== hubId) throw new HearthError('forbidden', 'The delivery is for another hub');
  const fresh = transact(context.db, () => {
    context.db.prepare('DELETE FROM cloud_webhook_delivery WHERE received_at < ?').run(now - REMEMBER_MS);
    return (
      context.db.prepare('INSERT OR IGNORE INTO cloud_webhook_delivery (id, received_at) VALUES (?, ?)').run(delivery.id, now)
        .changes > 0
    );
  });
  if (fresh)
    context.bus.emit('cloud.webhook', {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      data: delivery.data,
      query: delivery.query as Record<string, string>,
      body: delivery.body,
      headers: delivery.headers as Record<string, string>,
    });
  return { id: delivery.id, duplicate: !fresh };
}
