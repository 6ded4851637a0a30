import { HearthError, notFound, WEBHOOK_LIMITS } from '@hearth/contract';
import type { Selectable } from 'kysely';
import type { CloudContext } from '../../platform/context';
import { newId } from '../../platform/tokens';
import { registeredHub } from '../cloud/registry';
import type { WebhookDeliveriesTable, WebhooksTable } from './tables';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The value at a dotted path of an object (`body.account.id`), or `undefined`. */
export function readPath(root: unknown, path: string): unknown {
  let value = root;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** What a registration is matched by: its `data.$key`, as text (numbers and booleans as they print). */
export function matchKeyOf(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

/** Webhooks and their registrations and deliveries, as the developer API answers them. */
export function webhookStore(context: CloudContext) {
  const { db } = context.database;

  const clientCount = async (webhookId: string) =>
    Number(
      (
        await db
          .selectFrom('webhook_clients')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('webhook_id', '=', webhookId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const toWebhook = async (row: Selectable<WebhooksTable>) => ({
    _id: row.id,
    id: row.id,
    name: row.name,
    fn: row.fn,
    keyPath: row.key_path,
    url: `${context.config.publicUrl}/webhooks/webhook/${row.id}`,
    clients: await clientCount(row.id),
    createdAt: iso(row.created_at) as string,
    updatedAt: iso(row.updated_at) as string,
  });

  const toDelivery = (row: Selectable<WebhookDeliveriesTable>) => ({
    id: row.id,
    homeyId: row.hub_id,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: iso(row.created_at) as string,
    deliveredAt: iso(row.delivered_at),
    nextAttemptAt: row.state === 'pending' ? iso(row.next_attempt_at) : null,
  });

  /** A webhook of `userId`; another developer's answers the same as none. */
  const owned = async (userId: string, webhookId: string) => {
    const row = await db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', webhookId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('Webhook', webhookId);
    return row;
  };

  return {
    toWebhook,

    async list(userId: string) {
      const rows = await db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
      return Promise.all(rows.map(toWebhook));
    },

    async create(userId: string, fields: { name: string; fn?: string; keyPath?: string }) {
      const row = await db
        .insertInto('webhooks')
        .values({ id: newId(), user_id: userId, name: fields.name, fn: fields.fn ?? '', key_path: fields.keyPath ?? '' })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toWebhook(row);
    },

    async get(userId: string, webhookId: string) {
      const row = await owned(userId, webhookId);
      const deliveries = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(WEBHOOK_LIMITS.listedDeliveries)
        .execute();
      return { ...(await toWebhook(row)), deliveries: deliveries.map(toDelivery) };
    },

    async update(userId: string, webhookId: string, changes: { name?: string; fn?: string; keyPath?: string }) {
      await owned(userId, webhookId);
      const row = await db
        .updateTable('webhooks')
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.fn !== undefined ? { fn: changes.fn } : {}),
          ...(changes.keyPath !== undefined ? { key_path: changes.keyPath } : {}),
          updated_at: new Date(context.clock.now()),
        })
        .where('id', '=', webhookId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toWebhook(row);
    },

    async remove(userId: string, webhookId: string) {
      await owned(userId, webhookId);
      await db.deleteFrom('webhooks').where('id', '=', webhookId).execute();
    },

    /** Any webhook, for a hub registering and for a call. */
    async find(webhookId: string) {
      const row = await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirst();
      if (!row) throw notFound('Webhook', webhookId);
      return row;
    },

    async register(webhookId: string, hubId: string, data: Record<string, unknown>, callbackUrl: string | null) {
      if (!(await registeredHub(db, hubId))) throw notFound('Hub', hubId);
      if (data.$key !== undefined && matchKeyOf(data.$key) === null)
        throw new HearthError('invalid_parameter', 'Invalid Parameter: data.$key. Expected a string, number or boolean');
      const registeredAt = new Date(context.clock.now());
      const values = {
        data: JSON.stringify(data),
        match_key: matchKeyOf(data.$key),
        callback_url: callbackUrl,
        registered_at: registeredAt,
      };
      await db
        .insertInto('webhook_clients')
        .values({ webhook_id: webhookId, hub_id: hubId, ...values })
        .onConflict((oc) => oc.columns(['webhook_id', 'hub_id']).doUpdateSet(values))
        .execute();
      return { webhookId, homeyId: hubId, data, registeredAt: registeredAt.toISOString() };
    },

    async unregister(webhookId: string, hubId: string) {
      const removed = await db
        .deleteFrom('webhook_clients')
        .where('webhook_id', '=', webhookId)
        .where('hub_id', '=', hubId)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw notFound('Webhook registration', `${webhookId}/${hubId}`);
    },

    /** The registrations a call reaches: those whose key is `key`, or every one when the webhook has no key path. */
    async clients(webhookId: string, key: string | null | undefined) {
      let query = db.selectFrom('webhook_clients').select(['hub_id', 'data']).where('webhook_id', '=', webhookId);
      if (key !== undefined) {
        if (key === null) return [];
        query = query.where('match_key', '=', key);
      }
      return query.execute();
    },
  };
}
