import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { RadioNetwork } from '../../runtime/radio-network';
import { optionHandlers } from '../options';
import { defaultZwaveRegion, ZwaveController } from './controller';

/** Z-Wave: the simulated controller whose nodes are the paired Z-Wave devices. */
export const zwaveManager: HubManager = {
  name: 'zwave',
  create: (context, services) => {
    const controller = new ZwaveController(context, new RadioNetwork(context, services.devices, 'zwave', 2));
    return {
      implementations: implement<typeof hubOperations.zwave, HubPrincipal>(hubOperations.zwave, {
        getState: () => controller.state(),
        ...optionHandlers(context, 'zwave', hubOperations.zwave, {
          region: { default: defaultZwaveRegion(context.config.language) },
          regionOverride: { default: null },
        }),
        runCommand: ({ body }) => controller.command(body.command, body.opts) ?? null,
        getLog: () => controller.logState(),
        setLogEnabled: ({ body }) => controller.setLogEnabled(body.enabled),
        setLbtThreshold: ({ body }) => controller.setLbtThreshold(body.threshold),
        attemptNvmFix: () => controller.attemptNvmFix(),
        flashFirmware: ({ body }) => controller.flashFirmware(body.erase === true),
      }),
    };
  },
};
