import { cloudOperations, HearthError, invalidParameter, PUSH_LIMITS } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import { hubOfSecretOrRefuse } from '../../platform/hub-secret';
import type { CloudService } from '../service';
import { loadVapidKeys, pushSender, subscriptionOf, type VapidKeys } from './push';

const notificationOps = cloudOperations.notifications;

/** Pushes one hub may ask for: a busy household's notifications, not a flood. */
const PER_HUB = { name: 'push', quota: 600, windowSeconds: 60 };

/**
 * Push notifications under `/notifications`: a hub of the provider asks the cloud to notify users of its household;
 * each web device they registered (`POST /cloud/user/{id}/device` with a push subscription) gets the message by
 * Web Push, encrypted for that device and signed with the cloud's VAPID key. A subscription its push service reports
 * gone (404, 410) is removed from the user's devices.
 */
export const notificationsService: CloudService = {
  name: 'notifications',
  create: (context) => {
    let loaded: VapidKeys | null = null;
    return {
      implementations: () => {
        const { db } = context.database;
        const keys = () => {
          if (!loaded) throw new Error('The notifications service has not started');
          return loaded;
        };
        const sender = pushSender(context, keys);

        return implement<typeof notificationOps, CloudPrincipal>(notificationOps, {
          push: async ({ query, body, request }) => {
            const hubId = hubOfSecretOrRefuse(context, query.secret);
            await context.rateLimiter.count(request, PER_HUB, hubId);
            if (!body.data.title && !body.data.body) throw invalidParameter('data', 'A notification needs a title or a body');
            const payload = JSON.stringify(body.data);
            if (Buffer.byteLength(payload) > PUSH_LIMITS.maxPayloadBytes)
              throw new HearthError(
                'payload_too_large',
                `A notification is at most ${PUSH_LIMITS.maxPayloadBytes} bytes as JSON`,
              );

            const hub = await db.selectFrom('hubs').select('owner_user_id').where('id', '=', hubId).executeTakeFirst();
            if (!hub) throw new HearthError('forbidden', 'The hub is not in the registry');
            const members = new Set(
              (await db.selectFrom('hub_users').select('user_id').where('hub_id', '=', hubId).execute()).map((m) => m.user_id),
            );
            if (hub.owner_user_id) members.add(hub.owner_user_id);
            const users = [...new Set(body.batch)].filter((userId) => members.has(userId));
            let skipped = body.batch.length - users.length;

            const devices =
              users.length === 0
                ? []
                : await db
                    .selectFrom('user_devices')
                    .select(['id', 'token', 'public_key'])
                    .where('user_id', 'in', users)
                    .execute();
            const targets = devices.flatMap((device) => {
              const subscription = subscriptionOf(device.token, device.public_key, sender.allowPrivate);
              if (!subscription) skipped += 1;
              return subscription ? [{ deviceId: device.id, subscription }] : [];
            });
            const outcomes = await sender.send(targets, payload);
            const gone = outcomes.filter((o) => o.outcome === 'gone').map((o) => o.target.deviceId);
            if (gone.length > 0) await db.deleteFrom('user_devices').where('id', 'in', gone).execute();
            return {
              sent: outcomes.filter((o) => o.outcome === 'sent').length,
              removed: gone.length,
              failed: outcomes.filter((o) => o.outcome === 'failed').length,
              skipped,
            };
          },
          getVapidKey: () => ({ publicKey: keys().publicKey }),
        });
      },
      start: async () => {
        loaded = await loadVapidKeys(context);
      },
    };
  },
};
