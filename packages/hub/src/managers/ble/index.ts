import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { RadioNetwork } from '../../runtime/radio-network';
import { BleRadio } from './radio';

/** Bluetooth Low Energy: simulated discovery and connections. */
export const bleManager: HubManager = {
  name: 'ble',
  create: (context, services) => {
    const radio = new BleRadio(new RadioNetwork(context, services.devices, 'ble', 1));
    return {
      implementations: implement<typeof hubOperations.ble, HubPrincipal>(hubOperations.ble, {
        getState: () => radio.state(),
        runCommand: ({ body }) => radio.command(body.command, body.opts) ?? null,
      }),
    };
  },
};
