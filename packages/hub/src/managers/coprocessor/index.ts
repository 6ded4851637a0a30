import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** The radio coprocessor: paired bridges and debug logging. */
export const coprocessorManager: HubManager = {
  name: 'coprocessor',
  create: (_context, services) => {
    const { radio } = services;
    return {
      implementations: implement<typeof hubOperations.coprocessor, HubPrincipal>(hubOperations.coprocessor, {
        getState: () => ({ bridges: radio.bridges().length }),
        getBridges: () => radio.bridges(),
        pairBridge: ({ body }) => radio.pairBridge(body.serialHash),
        setDebugLogging: ({ body }) => radio.setDebug(body.peripheral, body.enabled),
      }),
    };
  },
};
