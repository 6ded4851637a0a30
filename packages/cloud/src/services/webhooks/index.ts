import { cloudOperations, HearthError } from '@hearth/contract';
import { addressKey, implement } from '@hearth/contract/fastify';
import type { FastifyRequest } from 'fastify';
import { createTokenResolver, refuseHubBound, requireUser } from '../../platform/auth';
import type { CloudPrincipal } from '../../platform/context';
import { hubOfSecretOrRefuse } from '../../platform/hub-secret';
import { newId } from '../../platform/tokens';
import type { CloudService } from '../service';
import { webhookDelivery } from './delivery';
import { matchKeyOf, readPath, webhookStore } from './store';

const webhookOps = cloudOperations.webhooks;

/** Calls of one webhook from one address: a service posting events is well inside it, a flood is not. */
const PER_CALLER = { name: 'webhook-call', quota: 600, windowSeconds: 60 };
/** Headers a delivery does not pass on: credentials, and what describes the hop rather than the call. */
const WITHHELD_HEADERS =
  /^(authorization|cookie|host|connection|content-length|transfer-encoding|x-forwarded-.*|forwarded|x-real-ip)$/;

/**
 * Webhooks under `/webhooks`. Developers keep webhooks (by an access token in the query, as the wire has it);
 * hubs register for one with their secret and `data`; a call to a webhook's public address is matched against the
 * registrations (`keyPath` of the call against `data.$key`) and delivered to each matching hub, retried with
 * back-off (see `delivery.ts`). The provider's own webhook (`HUB_LOGIC_WEBHOOK_ID`) reaches hubs' flows.
 */
export const webhooksService: CloudService = {
  name: 'webhooks',
  create: (context, { connect }) => {
    const delivery = webhookDelivery(context, connect.relay);
    let stopTimer: (() => void) | null = null;
    return {
      implementations: () => {
        const store = webhookStore(context);
        const resolve = createTokenResolver(context);
        const developer = async (token: string) => {
          const principal = await resolve(token).catch(() => {
            throw new HearthError('forbidden', 'Invalid or expired token');
          });
          return requireUser(refuseHubBound(principal));
        };
        const hubOf = (secret: string, homeyId: string) => {
          if (hubOfSecretOrRefuse(context, secret) !== homeyId)
            throw new HearthError('forbidden', 'The secret is not this hub’s');
        };

        const call = async (request: FastifyRequest, webhookId: string, query: Record<string, string>, body: unknown) => {
          await context.rateLimiter.count(request, PER_CALLER, `${webhookId}:${addressKey(request.ip)}`);
          const webhook = await store.find(webhookId);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(request.headers))
            if (typeof value === 'string' && !WITHHELD_HEADERS.test(name)) headers[name] = value;
          const received = { query, body: body ?? null, headers };
          const key = webhook.key_path === '' ? undefined : matchKeyOf(readPath(received, webhook.key_path));
          const clients = await store.clients(webhookId, key);
          const receivedAt = new Date(context.clock.now()).toISOString();
          await delivery.enqueue(
            webhookId,
            clients.map((client) => {
              const id = newId();
              const payload = { id, webhookId, homeyId: client.hub_id, data: client.data, ...received, receivedAt };
              return { id, hubId: client.hub_id, payload: JSON.stringify(payload) };
            }),
          );
          return { webhookId, deliveries: clients.length };
        };

        return implement<typeof webhookOps, CloudPrincipal>(webhookOps, {
          getWebhooks: async ({ query }) => store.list(await developer(query.token)),
          createWebhook: async ({ query, body }) => store.create(await developer(query.token), body),
          getWebhook: async ({ params, query }) => store.get(await developer(query.token), params.webhookId),
          updateWebhook: async ({ params, query, body }) => store.update(await developer(query.token), params.webhookId, body),
          deleteWebhook: async ({ params, query }) => store.remove(await developer(query.token), params.webhookId),
          registerWebhookClient: async ({ params, body }) => {
            hubOf(body.secret, params.homeyId);
            await store.find(params.webhookId);
            return store.register(params.webhookId, params.homeyId, body.data ?? {}, body.callback_url ?? null);
          },
          unregisterWebhookClient: async ({ params, query }) => {
            hubOf(query.secret, params.homeyId);
            await store.unregister(params.webhookId, params.homeyId);
          },
          callWebhook: ({ params, query, body, request }) => call(request, params.webhookId, query, body),
          callWebhookGet: ({ params, query, request }) => call(request, params.webhookId, query, null),
        });
      },
      start: () => {
        // Retries wait in the database; each node looks for due ones often (an indexed lookup) and prunes hourly.
        const intervalMs = Math.min(1000, context.config.webhookRetryBaseMs ?? 1000);
        let sweeps = 0;
        let busy = false;
        stopTimer = context.clock.setInterval(() => {
          if (busy) return;
          busy = true;
          sweeps += 1;
          const prune = sweeps % Math.ceil(3_600_000 / intervalMs) === 0;
          (prune ? delivery.prune() : Promise.resolve())
            .then(() => delivery.sweep())
            .catch((error) => context.log.error({ err: error }, 'webhook deliveries: sweeping due retries failed'))
            .finally(() => {
              busy = false;
            });
        }, intervalMs);
      },
      stop: () => {
        stopTimer?.();
        stopTimer = null;
      },
    };
  },
};
