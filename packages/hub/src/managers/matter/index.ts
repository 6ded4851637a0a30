import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { hubRuntime } from '../../runtime';
import { optionHandlers } from '../options';

/** Matter: the commissioned nodes (the paired Matter devices) and their fabrics. */
export const matterManager: HubManager = {
  name: 'matter',
  implementations: (context) => {
    const { radio } = hubRuntime(context);
    return implement<typeof hubOperations.matter, HubPrincipal>(hubOperations.matter, {
      getState: () => ({ nodes: radio.matterNodes().length }),
      ...optionHandlers(context, 'matter', hubOperations.matter, { paaSettings: { default: {} } }),
      getMatterNodes: () => radio.matterNodes(),
      getMatterNode: ({ params }) => radio.matterNode(params.id),
      deleteMatterNode: ({ params }) => {
        radio.deleteMatterNode(params.id);
        return undefined;
      },
      getNodeFabrics: ({ params }) => radio.matterFabrics(params.id),
      pingNode: ({ params }) => ({
        id: radio.matterNode(params.id).id,
        reachable: radio.matterNode(params.id).reachable,
        rttMs: 31,
      }),
    });
  },
};
