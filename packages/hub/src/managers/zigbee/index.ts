import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { RadioNetwork } from '../../runtime/radio-network';
import { ZigbeeCoordinator } from './coordinator';

/** Zigbee: the simulated coordinator whose nodes are the paired Zigbee devices. */
export const zigbeeManager: HubManager = {
  name: 'zigbee',
  create: (context, services) => {
    const coordinator = new ZigbeeCoordinator(context, new RadioNetwork(context, services.devices, 'zigbee', 0x1001));
    return {
      implementations: implement<typeof hubOperations.zigbee, HubPrincipal>(hubOperations.zigbee, {
        getState: () => coordinator.state(),
        runCommand: ({ body }) => coordinator.command(body.command, body.opts) ?? null,
        flashFirmware: () => coordinator.flashFirmware(),
      }),
    };
  },
};
