import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { optionHandlers } from '../options';

/** Z-Wave: the simulated controller whose nodes are the paired Z-Wave devices. */
export const zwaveManager: HubManager = {
  name: 'zwave',
  create: (context, services) => {
    const { radio } = services;
    return {
      implementations: implement<typeof hubOperations.zwave, HubPrincipal>(hubOperations.zwave, {
        getState: () => radio.zwaveState(),
        ...optionHandlers(context, 'zwave', hubOperations.zwave, { regionOverride: { default: null } }),
        runCommand: ({ body }) => radio.zwaveCommand(body.command, body.opts) ?? null,
        getLog: () => radio.zwaveLogState(),
        setLogEnabled: ({ body }) => radio.setZwaveLog(body.enabled),
      }),
    };
  },
};
