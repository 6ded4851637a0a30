import { HearthError, notFound } from '@hearth/contract';
import type { HubServices } from '../../runtime/services';
import { noController } from './controller';
import { deleteNodeDevices, zwaveDataOf } from './devices';
import { type ZwaveStick, zwaveJs } from './stick';

/**
 * Removing a node that no longer answers (broken, battery dead for good) from the controller, from its device's
 * page: zwave-js pings it first and removes it only when it stays silent; its devices go with it.
 */
export class ZwaveFailedNodes {
  constructor(
    private readonly services: Pick<HubServices, 'devices'>,
    private readonly stick: ZwaveStick | null,
  ) {}

  async removeFailedDevice(deviceId: string): Promise<{ nodeId: number; removedDeviceIds: string[] }> {
    const device = this.services.devices.require(deviceId);
    const zwave = zwaveDataOf(device);
    if (!zwave) throw notFound('Z-Wave device', deviceId);
    const driver = this.stick?.driver;
    if (!driver) throw noController(this.stick);
    const homeId = this.stick!.homeId();
    if (zwave.homeId !== homeId)
      throw new HearthError('unavailable', `${device.name} belongs to another Z-Wave network (home id ${zwave.homeId})`);
    // A node the controller no longer has leaves only its devices behind.
    if (driver.controller.nodes.has(zwave.nodeId)) {
      try {
        await driver.controller.removeFailedNode(zwave.nodeId);
      } catch (error) {
        throw this.#refusal(device.name, zwave.nodeId, error);
      }
    }
    return { nodeId: zwave.nodeId, removedDeviceIds: deleteNodeDevices(this.services.devices, homeId, zwave.nodeId) };
  }

  #refusal(name: string, nodeId: number, error: unknown): HearthError {
    const { ZWaveErrorCodes, ZWaveError } = zwaveJs();
    const reason = error instanceof Error ? error.message : String(error);
    if (!(error instanceof ZWaveError)) return new HearthError('unavailable', `Removing Z-Wave node ${nodeId} failed: ${reason}`);
    // zwave-js says "responded to a ping" (its check) or NodeOK (the controller's): either way the node works.
    if (error.code === ZWaveErrorCodes.RemoveFailedNode_NodeOK || /responded/.test(reason))
      return new HearthError(
        'zwave_node_not_failed',
        `Z-Wave node ${nodeId} of ${name} answers, so it is not failed: exclude it from its unpair session instead`,
      );
    if (error.code === ZWaveErrorCodes.Controller_InclusionFailed || /busy/i.test(reason))
      return new HearthError('zwave_busy', `The Z-Wave controller is busy: ${reason}`);
    return new HearthError('unavailable', `Removing Z-Wave node ${nodeId} of ${name} failed: ${reason}`);
  }
}
