import type { DeviceRef } from '../lib/device';
import { deviceIdOf } from '../lib/device';
import { ZwaveNode } from '../lib/zwave-node';
import type { HubToAppEventMap } from '../protocol/messages';
import { Manager } from './manager';

/** `this.homey.zwave`: the Z-Wave nodes of the app's devices, on the hub's Z-Wave controller. */
export class ManagerZwave extends Manager {
  static ID = 'zwave';
  readonly #nodes = new Map<string, Promise<ZwaveNode>>();

  /** The node of one of the app's Z-Wave devices (one object per device, so its listeners stay). */
  async getNode(device: DeviceRef): Promise<ZwaveNode> {
    const deviceId = deviceIdOf(device);
    let node = this.#nodes.get(deviceId);
    if (!node) {
      node = this.bridge.call('zwave.getNode', { deviceId }).then((info) => new ZwaveNode(this.bridge, deviceId, info));
      this.#nodes.set(deviceId, node);
      // A failed lookup (no controller yet) is asked again next time.
      node.catch(() => this.#nodes.delete(deviceId));
    }
    return node;
  }

  /** @internal A report the hub relays from a device's node. */
  deliver({ deviceId, commandClass, command, commandId, report }: HubToAppEventMap['zwave.report']): void {
    void this.#nodes
      .get(deviceId)
      ?.then((node) => node.deliver(commandClass, { value: commandId, name: command }, report))
      .catch(() => undefined);
  }

  /** @internal A device's node was found dead, or alive again. */
  deliverOnline({ deviceId, online }: HubToAppEventMap['zwave.online']): void {
    void this.#nodes
      .get(deviceId)
      ?.then((node) => node.setOnline(online))
      // A node whose lookup failed was never handed to the app: nobody listens to it.
      .catch(() => undefined);
  }
}
