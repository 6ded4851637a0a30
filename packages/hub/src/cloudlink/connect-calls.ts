import { ConnectForward, HearthError } from '@hearth/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HubContext, HubPrincipal } from '../platform/context';

/** Marks the socket of a request the cloud made through the tunnel for a connect call of its own. */
const FROM_CLOUD = Symbol('hearth.connect.fromCloud');

export function markCloudConnection(connection: object): void {
  (connection as unknown as Record<symbol, boolean>)[FROM_CLOUD] = true;
}

const fromCloud = (request: FastifyRequest) =>
  (request.raw.socket as unknown as Record<symbol, boolean> | undefined)?.[FROM_CLOUD] === true;

/** Runs one operation of a manager as `principal` (the transport's checks were made by the caller). */
export type RunOperation = (manager: string, operation: string, input: object) => Promise<unknown>;

/** A principal for a connect call made on behalf of one of the hub's users (no session of theirs exists here). */
function actingAs(context: HubContext, userId: string): HubPrincipal {
  const user = context.users.get(userId);
  if (!user?.enabled) throw new HearthError('forbidden', 'This user cannot act on this hub');
  return { sessionId: 'cloud-connect', userId: user.id, sessionType: 'OAUTH', role: user.role, scopes: [], internal: false };
}

/**
 * The connect calls the cloud forwards through the tunnel (`POST /api/connect/<call>`), answered only on a
 * connection the cloud opened for a call of its own: the same path asked by a client through the relay, or
 * locally, is not found. The cloud checked what it could (a mobile event's signature, the hub's budget); the hub
 * acts on them through its own managers: a webhook starts the flows waiting for it, a mobile event is recorded as
 * its user's, a push confirmation and an OAuth2 answer go on the domain bus for the part that waits for them.
 */
export function registerConnectCalls(app: FastifyInstance, context: HubContext, run: RunOperation): void {
  const route = <B>(call: string, schema: object, handle: (body: B) => Promise<unknown> | unknown) =>
    app.post<{ Body: B }>(`/api/connect/${call}`, { schema: { hide: true, body: schema } }, async (request, reply) => {
      if (!fromCloud(request)) throw new HearthError('route_not_found', `Route POST:${request.url} not found`);
      const answer = await handle(request.body as B);
      if (answer === undefined) return reply.status(204).send();
      return answer;
    });
  // Hidden routes still validate their bodies: the contract declares what the cloud sends.
  route<{ webhookId: string; args?: Record<string, unknown> }>('webhook', ConnectForward.webhook, ({ webhookId, args }) => {
    const owner = context.users.owner();
    if (!owner) throw new HearthError('unavailable', 'The hub has no owner yet');
    const tag = typeof args?.tag === 'string' ? args.tag.slice(0, 500) : undefined;
    return run('logic', 'triggerWebhook', {
      params: { event: webhookId },
      query: tag === undefined ? {} : { tag },
      principal: actingAs(context, owner.id),
    });
  });
  route<{ athomId: string; deviceId: string; message: string }>('mobile-event', ConnectForward.mobileEvent, (body) => {
    const user = context.users.findByAthomId(body.athomId);
    if (!user) throw new HearthError('forbidden', 'This account is not a user of this hub');
    let event = 'message';
    let data: Record<string, unknown> = { message: body.message };
    try {
      const parsed = JSON.parse(body.message) as { event?: unknown; data?: unknown };
      if (typeof parsed.event === 'string' && parsed.event.length > 0 && parsed.event.length <= 100) {
        event = parsed.event;
        data = typeof parsed.data === 'object' && parsed.data !== null ? (parsed.data as Record<string, unknown>) : {};
      }
    } catch {
      // A message that is not JSON is sent on as it came: the text under the event `message`.
    }
    const { userId: _ignored, ...own } = data;
    return run('mobile', 'sendEvent', {
      body: { event, data: { ...own, deviceId: body.deviceId } },
      principal: actingAs(context, user.id),
    });
  });
  route<{ pushId: string; choice: string }>('push-confirm', ConnectForward.pushConfirm, (body) => {
    context.bus.emit('cloud.pushConfirmed', { pushId: body.pushId, choice: body.choice });
  });
  route<{ code?: string; token?: string }>('oauth2-callback', ConnectForward.oauth2Callback, (body) => {
    context.bus.emit('cloud.oauth2Callback', { code: body.code ?? null, token: body.token ?? null });
  });
}
