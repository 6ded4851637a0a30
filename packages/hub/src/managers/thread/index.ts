import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** Thread: the hub's border router, its dataset and the network's topology. */
export const threadManager: HubManager = {
  name: 'thread',
  create: (_context, services) => {
    const router = services.thread;
    return {
      implementations: implement<typeof hubOperations.thread, HubPrincipal>(hubOperations.thread, {
        getState: () => ({
          enabled: router.enabled(),
          role: router.enabled() ? 'leader' : 'disabled',
          networkName: router.dataset().networkName,
        }),
        getNetworkTopology: () => router.topology(),
        getActiveDataset: () => router.dataset(),
        setActiveDataset: ({ body }) => router.setDataset(body.tlvHex),
        apiReset: () => router.reset(),
        executeCommand: ({ body }) => router.command(body.command),
        apiDisable: () => router.setEnabled(false),
        apiEnable: () => router.setEnabled(true),
        getDiscoveredBorderRouters: () => router.discoveredBorderRouters(),
        rescanBorderRouters: () => router.rescanBorderRouters(),
      }),
    };
  },
};
