import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { hubRuntime } from '../../runtime';

/** Bluetooth Low Energy: simulated discovery and connections. */
export const bleManager: HubManager = {
  name: 'ble',
  implementations: (context) => {
    const { radio } = hubRuntime(context);
    return implement<typeof hubOperations.ble, HubPrincipal>(hubOperations.ble, {
      getState: () => radio.bleState(),
      runCommand: ({ body }) => radio.bleCommand(body.command, body.opts) ?? null,
    });
  },
};
