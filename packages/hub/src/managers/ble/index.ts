import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** Bluetooth Low Energy: simulated discovery and connections. */
export const bleManager: HubManager = {
  name: 'ble',
  create: (_context, services) => {
    const { radio } = services;
    return {
      implementations: implement<typeof hubOperations.ble, HubPrincipal>(hubOperations.ble, {
        getState: () => radio.bleState(),
        runCommand: ({ body }) => radio.bleCommand(body.command, body.opts) ?? null,
      }),
    };
  },
};
