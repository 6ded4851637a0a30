import { cloudOperations, hubOperations, WEBHOOK_SIGNATURE_HEADER } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudLink } from '../../cloudlink/client';
import { cameThroughRelay } from '../../cloudlink/relayed-request';
import { isoNow } from '../../core/clock';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { cloudWebhookMigrations, receiveCloudWebhook } from './webhooks';

/** Whether the hub can reach its cloud right now. */
async function reachable(cloud: CloudLink): Promise<boolean> {
  try {
    await cloud.call(cloudOperations.cloud.getHealth, {}, { timeoutMs: 1500 });
    return true;
  } catch {
    return false;
  }
}

/** The hub's link to the cloud platform. A hub runs fully without one (`cloudUrl` null). */
export const cloudManager: HubManager = {
  name: 'cloud',
  migrations: cloudWebhookMigrations,
  create: (context) => ({
    implementations: implement<typeof hubOperations.cloud, HubPrincipal>(hubOperations.cloud, {
      getState: async () => {
        const url = context.config.cloudUrl;
        return {
          enabled: url !== null,
          url,
          homeyId: context.config.id,
          connected: url === null ? false : await reachable(context.cloud),
          checkedAt: isoNow(context.clock),
        };
      },
      getClaim: ({ request }) => context.claim.current({ remote: cameThroughRelay(request.raw.socket) }),
      receiveWebhook: ({ body, request }) => {
        const signature = request.headers[WEBHOOK_SIGNATURE_HEADER];
        return receiveCloudWebhook(context, body.delivery, typeof signature === 'string' ? signature : undefined);
      },
    }),
  }),
};
