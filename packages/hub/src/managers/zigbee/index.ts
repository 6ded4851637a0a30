import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** Zigbee: the simulated coordinator whose nodes are the paired Zigbee devices. */
export const zigbeeManager: HubManager = {
  name: 'zigbee',
  create: (_context, services) => {
    const { radio } = services;
    return {
      implementations: implement<typeof hubOperations.zigbee, HubPrincipal>(hubOperations.zigbee, {
        getState: () => radio.zigbeeState(),
        runCommand: ({ body }) => radio.zigbeeCommand(body.command, body.opts) ?? null,
        flashFirmware: () => radio.flashZigbeeFirmware(),
      }),
    };
  },
};
