import type { DeviceRecord, DeviceService } from '../managers/devices/service';
import type { HubContext } from '../platform/context';

/**
 * What the simulated radios (Z-Wave, Zigbee, BLE, Matter, Thread) share: their nodes are the paired devices of
 * their connectivity, so a node exists exactly while its device does, and each node keeps a small id of its own.
 */
export class RadioNetwork {
  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
    /** The connectivity of the radio's devices (`zwave`, `zigbee`, …); also names the radio's settings. */
    readonly radio: string,
    /** The first node id the radio hands out. */
    private readonly firstNodeId: number,
  ) {}

  /** The paired devices of this radio. */
  nodes(): DeviceRecord[] {
    return this.devices.list().filter((d) => (this.devices.driverOf(d)?.driver.connectivity ?? []).includes(this.radio as never));
  }

  /**
   * A stable small id per device (the node id of a Z-Wave device): the one its pairing gave it, else one
   * allocated on first sight from the same counter pairing uses, so ids never collide.
   */
  nodeIdOf(device: DeviceRecord): number {
    if (typeof device.data.nodeId === 'number') return device.data.nodeId;
    const key = `${this.radio}.nodes`;
    const nodes = this.context.settings.get<Record<string, number>>(key, {});
    if (nodes[device.id] === undefined) {
      const next = this.context.settings.get<number>(`${this.radio}.nextNodeId`, this.firstNodeId);
      nodes[device.id] = next;
      this.context.settings.set(`${this.radio}.nextNodeId`, next + 1);
      this.context.settings.set(key, nodes);
    }
    return nodes[device.id] as number;
  }

  /** Node ids allocated to devices that are gone (a node table out of step with the devices). */
  staleNodeIds(): string[] {
    const present = new Set(this.nodes().map((d) => d.id));
    return Object.keys(this.context.settings.get<Record<string, number>>(`${this.radio}.nodes`, {})).filter(
      (deviceId) => !present.has(deviceId),
    );
  }

  /** Forgets the node ids of devices that are gone; answers how many. */
  dropStaleNodeIds(): number {
    const stale = this.staleNodeIds();
    if (stale.length === 0) return 0;
    const nodes = this.context.settings.get<Record<string, number>>(`${this.radio}.nodes`, {});
    for (const deviceId of stale) delete nodes[deviceId];
    this.context.settings.set(`${this.radio}.nodes`, nodes);
    return stale.length;
  }

  /** Starts node ids afresh (a controller whose memory was erased). */
  resetNodeIds(): void {
    this.context.settings.delete(`${this.radio}.nodes`);
    this.context.settings.delete(`${this.radio}.nextNodeId`);
  }

  /** Whether the device's record is available (a node of an unavailable device is unreachable). */
  available(device: DeviceRecord): boolean {
    return this.devices.view(device).available;
  }
}

/** A setting that is made once (a network id, a home id) and kept from then on. */
export function settingOnce<T>(context: HubContext, key: string, make: () => T): T {
  if (context.settings.has(key)) return context.settings.get<T>(key, undefined as T);
  const value = make();
  context.settings.set(key, value);
  return value;
}

/** A 64-bit IEEE address made from the device's id, for devices whose pairing gave none. */
export function ieeeAddressOf(device: DeviceRecord): string {
  const hex = device.id.replace(/-/g, '').slice(0, 16);
  return hex.replace(/(..)(?!$)/g, '$1:');
}
