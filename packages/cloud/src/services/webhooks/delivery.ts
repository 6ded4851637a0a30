import { HearthError, WEBHOOK_LIMITS, WEBHOOK_SIGNATURE_HEADER } from '@hearth/contract';
import { signWebhookDelivery } from '@hearth/contract/hub-secret';
import { type Selectable, sql } from 'kysely';
import type { CloudContext } from '../../platform/context';
import { secretOfHub } from '../../platform/hub-secret';
import { registeredHub } from '../cloud/registry';
import type { Relay } from '../connect/relay';
import type { WebhookDeliveriesTable } from './tables';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** Where a hub takes webhook deliveries: its cloud manager, under its registered address. */
const HUB_DELIVERY_PATH = '/api/manager/cloud/webhook';
/** A node that took a delivery has this long to finish its attempt before another node may take it. */
const LEASE_MS = 30_000;
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Deliveries taken by one sweep of one node. */
const SWEEP_BATCH = 20;

/** First retry after this (then doubling), unless configured (`HEARTH_WEBHOOK_RETRY_MS`). */
export const DEFAULT_RETRY_BASE_MS = 5000;

/**
 * Delivers webhook calls to hubs: through the hub's relay tunnel when it has one (on whichever node), else at the
 * local address it registered in the hub registry (a hub on the cloud's own network). Every delivery is a row: it is taken for an attempt by moving its
 * `next_attempt_at` past the attempt in one conditional update, so of several cloud nodes exactly one sends it;
 * a failed attempt sets the next one with exponential back-off, and the last one marks it `failed`.
 */
export function webhookDelivery(context: CloudContext, relay: Relay) {
  const { db } = context.database;
  const retryBaseMs = context.config.webhookRetryBaseMs ?? DEFAULT_RETRY_BASE_MS;

  const finish = async (row: DeliveryRow, status: number | null, error: string | null) => {
    const delivered = status !== null && status >= 200 && status < 300;
    // A hub that refuses the delivery itself (a bad signature, a call it does not know) will refuse it again.
    const refused = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
    const last = row.attempts >= WEBHOOK_LIMITS.maxAttempts;
    const backoffMs = retryBaseMs * 2 ** (row.attempts - 1);
    await db
      .updateTable('webhook_deliveries')
      .set({
        state: delivered ? 'delivered' : refused || last ? 'failed' : 'pending',
        last_status: status,
        last_error: delivered ? null : (error ?? `the hub answered ${status}`).slice(0, 500),
        delivered_at: delivered ? sql<Date>`now()` : null,
        next_attempt_at: sql<Date>`now() + (${backoffMs} * interval '1 millisecond')`,
      })
      .where('id', '=', row.id)
      .execute();
  };

  /** An attempt's own failures are recorded on the delivery; what is left (the database not answering) is logged. */
  const attemptLogged = (row: DeliveryRow) =>
    attempt(row).catch((error) =>
      context.log.error({ err: error, deliveryId: row.id, hubId: row.hub_id }, 'webhook delivery: recording an attempt failed'),
    );

  /** One attempt of a delivery this node has taken. */
  const attempt = async (row: DeliveryRow): Promise<void> => {
    const secret = secretOfHub(context, row.hub_id);
    if (!secret) return finish(row, null, 'the hub is not in the registry');
    const signature = signWebhookDelivery(secret, row.payload, Math.floor(context.clock.now() / 1000));
    const body = { delivery: row.payload };
    try {
      const answer = await relay.call(row.hub_id, 'POST', HUB_DELIVERY_PATH, body, [WEBHOOK_SIGNATURE_HEADER, signature]);
      return finish(row, answer.status, null);
    } catch (error) {
      // A hub without a tunnel may still be reachable at its registered address; other failures are the attempt's.
      if (!(error instanceof HearthError && error.code === 'hub_offline'))
        return finish(row, error instanceof HearthError && error.code === 'rate_limited' ? 429 : null, describe(error));
    }
    const hub = await registeredHub(db, row.hub_id);
    if (!hub?.local_url)
      return finish(row, null, hub ? 'the hub is not connected and has registered no address' : 'the hub is not in the registry');
    try {
      const response = await fetch(`${hub.local_url.replace(/\/$/, '')}${HUB_DELIVERY_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-homey-id': row.hub_id, [WEBHOOK_SIGNATURE_HEADER]: signature },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        redirect: 'manual',
      });
      await response.body?.cancel();
      await finish(row, response.status, null);
    } catch (error) {
      await finish(row, null, describe(error));
    }
  };

  return {
    /**
     * Stores one delivery per hub, already taken by this node, and makes the first attempts without waiting for
     * them: the caller of the webhook is answered at once.
     */
    async enqueue(webhookId: string, payloads: { id: string; hubId: string; payload: string }[]): Promise<void> {
      if (payloads.length === 0) return;
      const rows = await db
        .insertInto('webhook_deliveries')
        .values(
          payloads.map((p) => ({
            id: p.id,
            webhook_id: webhookId,
            hub_id: p.hubId,
            payload: p.payload,
            state: 'pending' as const,
            attempts: 1,
            next_attempt_at: sql<Date>`now() + (${LEASE_MS} * interval '1 millisecond')`,
          })),
        )
        .returningAll()
        .execute();
      for (const row of rows) void attemptLogged(row);
    },

    /** Takes the deliveries due now (none another node holds) and attempts them. */
    async sweep(): Promise<number> {
      // The query builder (not raw SQL), so the statement runs in the cloud's schema.
      const due = await db
        .updateTable('webhook_deliveries')
        .set({
          attempts: sql<number>`attempts + 1`,
          next_attempt_at: sql<Date>`now() + (${LEASE_MS} * interval '1 millisecond')`,
        })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('state', '=', 'pending')
            .where('next_attempt_at', '<=', sql<Date>`now()`)
            .orderBy('next_attempt_at')
            .limit(SWEEP_BATCH)
            .forUpdate()
            .skipLocked(),
        )
        .returningAll()
        .execute();
      await Promise.all(due.map(attemptLogged));
      return due.length;
    },

    /** Forgets deliveries older than the service keeps them. */
    async prune(): Promise<void> {
      await db
        .deleteFrom('webhook_deliveries')
        .where('created_at', '<', sql<Date>`now() - (${WEBHOOK_LIMITS.keepDeliveriesSeconds} * interval '1 second')`)
        .execute();
    },
  };
}
