import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { optionHandlers } from '../options';
import { ZwaveAppNodes } from './app-nodes';
import { defaultZwaveRegion, ZwaveController } from './controller';
import { ZwaveNodeDevices } from './devices';
import { ZwaveFailedNodes } from './failed-nodes';
import { ZwaveInclusion } from './inclusion';
import { ZwaveDeviceSettings } from './settings';
import { ZwaveStick } from './stick';

/** Z-Wave: zwave-js on the stick `HUB_ZWAVE_PORT` names (config `zwavePort`); without one, no controller. */
export const zwaveManager: HubManager = {
  name: 'zwave',
  create: (context, services) => {
    const port = context.config.zwavePort;
    const stick = port ? new ZwaveStick(context, port) : null;
    const controller = new ZwaveController(context, stick);
    const nodeDevices = new ZwaveNodeDevices(context, services, stick);
    const inclusion = new ZwaveInclusion(context, services, stick, nodeDevices);
    const appNodes = new ZwaveAppNodes(services, stick);
    const settings = new ZwaveDeviceSettings(context.journal, services, stick);
    const failedNodes = new ZwaveFailedNodes(services, stick);
    return {
      implementations: implement<typeof hubOperations.zwave, HubPrincipal>(hubOperations.zwave, {
        getState: () => controller.state(),
        ...optionHandlers(context, 'zwave', hubOperations.zwave, {
          region: { default: defaultZwaveRegion(context.config.language) },
          regionOverride: { default: null },
        }),
        runCommand: async ({ body }) => (await controller.command(body.command, body.opts)) ?? null,
        getLog: () => controller.logState(),
        setLogEnabled: ({ body }) => controller.setLogEnabled(body.enabled),
        setLbtThreshold: ({ body }) => controller.setLbtThreshold(body.threshold),
        attemptNvmFix: () => controller.attemptNvmFix(),
        flashFirmware: () => controller.flashFirmware(),
        removeFailedDevice: ({ params }) => failedNodes.removeFailedDevice(params.deviceId),
      }),
      // The stick opens in the background: a slow or missing stick must not hold the hub's start.
      start: () => {
        nodeDevices.start();
        inclusion.start();
        appNodes.start();
        settings.start();
        void stick?.open();
      },
      stop: () => {
        settings.stop();
        appNodes.stop();
        inclusion.stop();
        nodeDevices.stop();
        return stick?.close();
      },
    };
  },
};
