import { Agent } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { PUSH_LIMITS } from '@hearth/contract';
import webpush from 'web-push';
import type { CloudContext } from '../../platform/context';
import { guardedLookup, isInternalAddress } from '../../platform/outbound';

const KEY_ID = 'current';
/** Messages to push services sent at once by one call. */
const CONCURRENCY = 8;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The cloud's VAPID keys: made on first use, stored, and the same for every node. */
export async function loadVapidKeys(context: CloudContext): Promise<VapidKeys> {
  const { db } = context.database;
  let row = await db.selectFrom('push_keys').selectAll().where('id', '=', KEY_ID).executeTakeFirst();
  if (!row) {
    const keys = webpush.generateVAPIDKeys();
    await db
      .insertInto('push_keys')
      .values({ id: KEY_ID, public_key: keys.publicKey, private_key: keys.privateKey })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await db.selectFrom('push_keys').selectAll().where('id', '=', KEY_ID).executeTakeFirstOrThrow();
  }
  return { publicKey: row.public_key, privateKey: row.private_key };
}

/** A device's web push subscription, when it registered one: an https endpoint and its keys (JSON text). */
export function subscriptionOf(
  token: string | null,
  publicKey: string | null,
  allowPrivate: boolean,
): webpush.PushSubscription | null {
  if (!token || !publicKey) return null;
  let endpoint: URL;
  let keys: unknown;
  try {
    endpoint = new URL(token);
    keys = JSON.parse(publicKey);
  } catch {
    return null;
  }
  if (endpoint.protocol !== 'https:' || endpoint.username || endpoint.password) return null;
  const host = endpoint.hostname.replace(/^\[|\]$/g, '');
  // A literal address is connected to without a lookup: check it here, names at connect time.
  if (!allowPrivate && (host === 'localhost' || (isIP(host) !== 0 && isInternalAddress(host)))) return null;
  const { p256dh, auth } = (keys ?? {}) as { p256dh?: unknown; auth?: unknown };
  if (typeof p256dh !== 'string' || typeof auth !== 'string') return null;
  // An uncompressed P-256 point and a 16-byte secret (RFC 8291); anything else cannot be encrypted for.
  if (Buffer.from(p256dh, 'base64url').length !== 65 || Buffer.from(auth, 'base64url').length !== 16) return null;
  return { endpoint: endpoint.toString(), keys: { p256dh, auth } };
}

export type Outcome = 'sent' | 'gone' | 'failed';

/**
 * Sends one notification to many subscriptions with web-push (aes128gcm, VAPID), a few at a time. Connections go
 * through an agent whose lookup refuses internal addresses (unless allowed) and which trusts the configured extra
 * certificates besides the system's.
 */
export function pushSender(context: CloudContext, keys: () => VapidKeys) {
  const { config } = context;
  const allowPrivate = config.pushAllowPrivateEndpoints ?? false;
  const agent = new Agent({
    lookup: guardedLookup(allowPrivate) as never,
    ...(config.pushCa ? { ca: [...rootCertificates, config.pushCa] } : {}),
    keepAlive: false,
  });
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  const subject = config.publicUrl.startsWith('https:') ? config.publicUrl : `mailto:${address}`;

  const sendOne = async (subscription: webpush.PushSubscription, payload: string): Promise<Outcome> => {
    try {
      await webpush.sendNotification(subscription, payload, {
        vapidDetails: { subject, publicKey: keys().publicKey, privateKey: keys().privateKey },
        TTL: PUSH_LIMITS.ttlSeconds,
        contentEncoding: 'aes128gcm',
        timeout: 10_000,
        agent,
      });
      return 'sent';
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      return status === 404 || status === 410 ? 'gone' : 'failed';
    }
  };

  return {
    allowPrivate,
    async send<T extends { subscription: webpush.PushSubscription }>(targets: T[], payload: string) {
      const outcomes: { target: T; outcome: Outcome }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < targets.length) {
          const target = targets[next++] as T;
          outcomes.push({ target, outcome: await sendOne(target.subscription, payload) });
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
      return outcomes;
    },
  };
}
