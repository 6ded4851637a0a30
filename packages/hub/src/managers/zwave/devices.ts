import { HearthError, notFound } from '@hearth/contract';
import type { ValueID, ZWaveNode } from 'zwave-js';
import type { CapabilityValue } from '../../core/bus';
import type { CapabilityDriver } from '../../core/device-control';
import type { HubContext } from '../../platform/context';
import type { HubServices } from '../../runtime/services';
import { driverFullId } from '../apps/catalogue';
import type { DeviceRecord } from '../devices/service';
import { baseCapability, CC, deviceClassOf, endpointCapability, mappingsOf, writeFor } from './capabilities';
import { noController } from './controller';
import type { ZwaveStick } from './stick';

/** The built-in generic Z-Wave driver: a node no app claims becomes a device with capabilities from its command classes. */
export const ZWAVE_DRIVER_ID = driverFullId('com.hearth.virtual', 'zwavenode');

/** SetValueStatus values that mean the node took the command (zwave-js: Working, SuccessUnsupervised, Success). */
const ACCEPTED = new Set([1, 254, 255]);

type Json = Record<string, unknown>;

/** Why a generic Z-Wave device is unavailable while zwave-js holds its node dead (asleep is no reason). */
export const DEAD_NODE_MESSAGE = 'The Z-Wave node does not answer: the controller marked it dead';

/** What a generic Z-Wave device keeps in its `data`: which network and node it is. */
interface ZwaveDeviceData {
  id: string;
  zwave: { homeId: string; nodeId: number };
}

export const zwaveDataOf = (device: DeviceRecord): ZwaveDeviceData['zwave'] | null => {
  const zwave = (device.data as Partial<ZwaveDeviceData>).zwave;
  return zwave && typeof zwave.nodeId === 'number' ? zwave : null;
};

/** Deletes every device (of any driver) of a node that left network `homeId`; answers their ids. */
export function deleteNodeDevices(devices: HubServices['devices'], homeId: string | null, nodeId: number): string[] {
  const gone = devices.list().filter((d) => zwaveDataOf(d)?.nodeId === nodeId && zwaveDataOf(d)?.homeId === homeId);
  for (const device of gone) devices.delete(device.id);
  return gone.map((d) => d.id);
}

/**
 * The generic driver's devices on the hub's zwave-js controller: offers interviewed nodes without a device as
 * candidates, sends capability writes to the node (confirmed by the node's own report), and stores the values
 * nodes report on their devices' capabilities.
 */
export class ZwaveNodeDevices {
  readonly #undo: (() => void)[] = [];
  /**
   * Writes whose node already reported its state, by `<deviceId>:<capability>`: the hub stores the written value
   * once the write returns, after that report, so the node's reading is stored again right after (a dimmer at
   * level 50 of 99 reads 0.51, not the 0.5 asked for).
   */
  readonly #reportAfterConfirmation = new Map<string, () => void>();

  constructor(
    private readonly context: HubContext,
    private readonly services: Pick<HubServices, 'devices' | 'deviceControl' | 'pairing'>,
    private readonly stick: ZwaveStick | null,
  ) {}

  start(): void {
    const driver: CapabilityDriver = { setCapabilityValues: (device, values) => this.#write(device.id, values) };
    this.#undo.push(
      this.services.deviceControl.useRadioDriver(ZWAVE_DRIVER_ID, driver),
      this.services.pairing.useRadioEvent(ZWAVE_DRIVER_ID, 'list_devices', async (_data, name) => this.candidates(name)),
      this.context.bus.on('device.added', 'zwave', ({ deviceId }) => this.#reportCurrentValues(deviceId)),
      this.context.bus.on('device.capability', 'zwave', ({ deviceId, capabilityId, source }) => {
        const key = `${deviceId}:${capabilityId}`;
        const report = this.#reportAfterConfirmation.get(key);
        if (!report || source.kind === 'app') return;
        this.#reportAfterConfirmation.delete(key);
        report();
      }),
    );
    if (this.stick)
      this.#undo.push(
        this.stick.onNodeValue((node, value) => this.#reported(node, value)),
        this.stick.onNodeStatus((node, status) => {
          if (status === 'dead' || status === 'alive') this.#reachability(node.id, status === 'alive');
        }),
      );
  }

  /**
   * A node found dead makes its devices unavailable with the reason; alive again (it answered or sent something),
   * available. A sleeping node is neither: zwave-js keeps its commands until it wakes.
   */
  #reachability(nodeId: number, alive: boolean): void {
    const message = alive ? null : DEAD_NODE_MESSAGE;
    for (const device of this.#devices()) {
      if (zwaveDataOf(device)?.nodeId !== nodeId || device.unavailableMessage === message) continue;
      // Only the hub's own reason is taken back: another one stays.
      if (alive && device.unavailableMessage !== DEAD_NODE_MESSAGE) continue;
      this.services.devices.updateFromApp(device.id, { unavailableMessage: message });
    }
  }

  stop(): void {
    for (const undo of this.#undo.splice(0)) undo();
  }

  #driver() {
    const driver = this.stick?.driver;
    if (!driver) throw noController(this.stick);
    return driver;
  }

  /** The device a node would become: its capabilities and class from the values it has after its interview. */
  candidate(node: ZWaveNode, name: string): Json {
    const capabilities = [...new Set(this.#mappedValues(node).flatMap(({ mappings }) => mappings.map((m) => m.capability)))];
    const homeId = this.stick!.homeId()!;
    return {
      name,
      data: { id: `${homeId}:${node.id}`, zwave: { homeId, nodeId: node.id } },
      capabilities,
      class: deviceClassOf(capabilities),
      store: {
        manufacturerId: node.manufacturerId ?? null,
        productTypeId: node.productType ?? null,
        productId: node.productId ?? null,
      },
    };
  }

  /** The interviewed nodes of the network that are no device yet (the controller is none). */
  candidates(name: string): Json[] {
    const driver = this.#driver();
    const taken = new Set(this.#devices().map((d) => zwaveDataOf(d)?.nodeId));
    return [...driver.controller.nodes.values()]
      .filter((node) => !node.isControllerNode && node.ready && !taken.has(node.id))
      .sort((a, b) => a.id - b.id)
      .map((node) => this.candidate(node, `${node.deviceConfig?.description ?? name} (node ${node.id})`));
  }

  #devices(): DeviceRecord[] {
    const homeId = this.stick?.homeId();
    return this.services.devices
      .list()
      .filter((d) => d.driverId === ZWAVE_DRIVER_ID && zwaveDataOf(d) !== null && zwaveDataOf(d)?.homeId === homeId);
  }

  /**
   * Each value of the node that feeds a capability, with its mappings; a multi-channel node's further endpoints
   * feed sub-capabilities (`onoff.2`, see `endpointCapability`).
   */
  #mappedValues(node: ZWaveNode) {
    const hasBinarySwitch = (endpoint: number) => node.getEndpoint(endpoint)?.supportsCC(CC.binarySwitch) ?? false;
    const mapped = node
      .getDefinedValueIDs()
      .map((id) => ({ id, mappings: mappingsOf(this.#described(node, id), hasBinarySwitch(id.endpoint ?? 0)) }))
      .filter(({ mappings }) => mappings.length > 0);
    const lowest = new Map<string, number>();
    for (const { id, mappings } of mapped)
      for (const { capability } of mappings)
        lowest.set(capability, Math.min(lowest.get(capability) ?? id.endpoint ?? 0, id.endpoint ?? 0));
    return mapped.map(({ id, mappings }) => ({
      id,
      mappings: mappings.map((m) => ({
        ...m,
        capability: endpointCapability(m.capability, id.endpoint ?? 0, lowest.get(m.capability)!),
      })),
    }));
  }

  #described(node: ZWaveNode, id: ValueID) {
    const metadata = node.getValueMetadata(id) as { ccSpecific?: Record<string, unknown> };
    return { ...id, ccSpecific: metadata.ccSpecific };
  }

  /** A capability write: the node's command, answered once the node's report of the new state came back. */
  async #write(deviceId: string, values: Readonly<Record<string, CapabilityValue>>): Promise<void> {
    const device = this.services.devices.require(deviceId);
    const zwave = zwaveDataOf(device);
    if (!zwave) throw notFound('Z-Wave device', deviceId);
    const node = this.#driver().controller.nodes.get(zwave.nodeId);
    if (!node) throw new HearthError('unavailable', `Z-Wave node ${zwave.nodeId} of ${device.name} is not in the network`);
    const mapped = this.#mappedValues(node);
    for (const [capability, value] of Object.entries(values)) {
      // The endpoint whose value feeds the capability takes its command (the root's, for a node without endpoints).
      const endpoint = mapped.find(({ mappings }) => mappings.some((m) => m.capability === capability))?.id.endpoint ?? 0;
      const commandClasses = (node.getEndpoint(endpoint) ?? node).getSupportedCCInstances().map((cc) => cc.ccId);
      const write = writeFor(baseCapability(capability), value, commandClasses, endpoint);
      let status: number;
      let message: string | undefined;
      try {
        // A command for a sleeping node waits for it to wake, but not past the stick's closing (see `whileOpen`).
        const open = <T>(command: Promise<T>) => (this.stick ? this.stick.whileOpen(command) : command);
        ({ status, message } = await open(node.setValue(write.target, write.value)));
        // The node's report, not our command, says what state it is in: its value event updates the capability.
        if (ACCEPTED.has(status)) {
          await open(node.pollValue(write.confirmedBy));
          this.#reportAfterConfirmation.set(`${deviceId}:${capability}`, () =>
            this.#reportCurrentValues(deviceId, write.confirmedBy),
          );
        }
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new HearthError('unavailable', `Z-Wave node ${node.id} of ${device.name} did not take the command: ${reason}`);
      }
      if (!ACCEPTED.has(status))
        throw new HearthError('unavailable', `Z-Wave node ${node.id} refused ${capability}: ${message ?? `status ${status}`}`);
    }
  }

  /** A value a node reported: stored on its device's capabilities, as the device's own report. */
  #reported(node: ZWaveNode, value: ValueID & { newValue: unknown }): void {
    const same = (id: ValueID) =>
      id.commandClass === value.commandClass &&
      (id.endpoint ?? 0) === (value.endpoint ?? 0) &&
      id.property === value.property &&
      id.propertyKey === value.propertyKey;
    // Naming a multi-channel node's sub-capabilities needs all its values; a node without endpoints maps this one.
    const mappings =
      node.getEndpointCount() === 0
        ? mappingsOf(this.#described(node, value), node.supportsCC(CC.binarySwitch))
        : (this.#mappedValues(node).find(({ id }) => same(id))?.mappings ?? []);
    if (mappings.length === 0) return;
    for (const device of this.#devices()) {
      if (zwaveDataOf(device)?.nodeId !== node.id) continue;
      for (const { capability, read } of mappings) this.#store(device, capability, read(value.newValue));
    }
  }

  /** A new device starts with what its node last reported, instead of blank capabilities (or only `only`'s). */
  #reportCurrentValues(deviceId: string, only?: ValueID): void {
    const device = this.services.devices.find(deviceId);
    const zwave = device && device.driverId === ZWAVE_DRIVER_ID ? zwaveDataOf(device) : null;
    const node = zwave ? this.stick?.node(zwave.nodeId) : undefined;
    if (!device || !node) return;
    const wanted = (id: ValueID) =>
      !only ||
      (id.commandClass === only.commandClass && (id.endpoint ?? 0) === (only.endpoint ?? 0) && id.property === only.property);
    for (const { id, mappings } of this.#mappedValues(node).filter(({ id }) => wanted(id)))
      for (const { capability, read } of mappings) this.#store(device, capability, read(node.getValue(id)));
  }

  #store(device: DeviceRecord, capability: string, value: CapabilityValue): void {
    if (value === null || !device.capabilities.includes(capability)) return;
    try {
      this.services.devices.reportCapabilityValue(device.id, capability, value, { source: { kind: 'app', appId: device.appId } });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.context.journal.log(
        `Z-Wave: storing ${capability} of ${device.name} from node ${zwaveDataOf(device)?.nodeId} failed: ${reason}`,
      );
    }
  }
}
