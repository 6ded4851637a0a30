import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** Whether the hub is tied to a cloud and can reach it right now. */
async function reachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/cloud/health`, { signal: AbortSignal.timeout(1500) });
    return response.ok;
  } catch {
    return false;
  }
}

/** The hub's link to the cloud platform. A hub runs fully without one (`cloudUrl` null). */
export const cloudManager: HubManager = {
  name: 'cloud',
  create: (context) => ({
    implementations: implement<typeof hubOperations.cloud, HubPrincipal>(hubOperations.cloud, {
      getState: async () => {
        const url = context.config.cloudUrl;
        return {
          enabled: url !== null,
          url,
          homeyId: context.config.id,
          connected: url === null ? false : await reachable(url),
          checkedAt: new Date().toISOString(),
        };
      },
    }),
  }),
};
