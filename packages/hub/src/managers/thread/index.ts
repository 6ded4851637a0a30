import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** Thread: the hub's border router, its dataset and the network's topology. */
export const threadManager: HubManager = {
  name: 'thread',
  create: (_context, services) => {
    const { radio } = services;
    return {
      implementations: implement<typeof hubOperations.thread, HubPrincipal>(hubOperations.thread, {
        getState: () => ({
          enabled: radio.threadEnabled(),
          role: radio.threadEnabled() ? 'leader' : 'disabled',
          networkName: radio.threadDataset().networkName,
        }),
        getNetworkTopology: () => radio.threadTopology(),
        getActiveDataset: () => radio.threadDataset(),
        setActiveDataset: ({ body }) => radio.setThreadDataset(body.tlvHex),
        apiReset: () => radio.resetThread(),
        executeCommand: ({ body }) => radio.threadCommand(body.command),
        apiDisable: () => radio.setThreadEnabled(false),
        apiEnable: () => radio.setThreadEnabled(true),
        getDiscoveredBorderRouters: () => radio.discoveredBorderRouters(),
        rescanBorderRouters: () => radio.rescanBorderRouters(),
      }),
    };
  },
};
