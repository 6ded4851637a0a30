import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { Bridges } from './bridges';

/** The radio coprocessor: paired bridges and debug logging. */
export const coprocessorManager: HubManager = {
  name: 'coprocessor',
  create: (context) => {
    const bridges = new Bridges(context);
    return {
      implementations: implement<typeof hubOperations.coprocessor, HubPrincipal>(hubOperations.coprocessor, {
        getState: () => ({ bridges: bridges.list().length }),
        getBridges: () => bridges.list(),
        pairBridge: ({ body }) => bridges.pair(body.serialHash),
        setDebugLogging: ({ body }) => bridges.setDebug(body.peripheral, body.enabled),
      }),
    };
  },
};
