import { HearthError, notFound } from '@hearth/contract';
import type { ValueID, ZWaveNode } from 'zwave-js';
import type { HubServices } from '../../runtime/services';
import type { AppZwaveNodes } from '../apps/process/radios';
import { commandClassName, commandsOf, reportOf, runCommand } from './app-command-classes';
import { noController } from './controller';
import { ZWAVE_DRIVER_ID, zwaveDataOf } from './devices';
import type { ZwaveStick } from './stick';
import { zwaveJs } from './stick';

type Json = Record<string, unknown>;

const BATTERY = 0x80;
const BASIC = 0x20;

/**
 * The command classes an app sees on a node: those zwave-js supports, and Basic when the node has it — zwave-js
 * hides Basic behind a node's own actuator classes, but apps written for the ecosystem use it (`BASIC_SET`).
 */
function appCommandClasses(node: ZWaveNode): number[] {
  const ids = new Set(node.getSupportedCCInstances().map((cc) => cc.ccId));
  for (const [ccId, info] of node.getCCs()) if (ccId === BASIC && info.version > 0) ids.add(ccId);
  return [...ids].sort((a, b) => a - b);
}

/**
 * The nodes of apps' Z-Wave devices as the Apps SDK sees them (`this.homey.zwave.getNode`): their command classes'
 * commands run on zwave-js, and the values their nodes report reach the app as its command classes' `report`s.
 */
export class ZwaveAppNodes implements AppZwaveNodes {
  #undo: (() => void)[] = [];

  constructor(
    private readonly services: Pick<HubServices, 'devices' | 'processes'>,
    private readonly stick: ZwaveStick | null,
  ) {}

  start(): void {
    const { radios } = this.services.processes;
    radios.zwave = this;
    this.#undo.push(() => {
      if (radios.zwave === this) radios.zwave = null;
    });
    if (this.stick)
      this.#undo.push(
        this.stick.onNodeValue((node, value) => this.#reported(node, value)),
        this.stick.onNodeStatus((node, status) => {
          if (status === 'dead' || status === 'alive') this.#online(node, status === 'alive');
        }),
      );
  }

  /** The app devices of a node on this network whose apps run. */
  #appDevices(nodeId: number) {
    const homeId = this.stick?.homeId();
    const { host } = this.services.processes;
    return this.services.devices
      .list()
      .filter(
        (d) =>
          d.driverId !== ZWAVE_DRIVER_ID &&
          zwaveDataOf(d)?.nodeId === nodeId &&
          zwaveDataOf(d)?.homeId === homeId &&
          host.isRunning(d.appId),
      );
  }

  /** A node found dead or alive again: its apps' ZwaveNode emits `online`, and the app decides (as the ecosystem's do). */
  #online(node: ZWaveNode, online: boolean): void {
    const { host } = this.services.processes;
    for (const device of this.#appDevices(node.id)) host.emit(device.appId, 'zwave.online', { deviceId: device.id, online });
  }

  stop(): void {
    for (const undo of this.#undo.splice(0)) undo();
  }

  /** The node of an app's device; a device of no node of this network is a 404, a missing node `unavailable`. */
  #node(appId: string, deviceId: string): ZWaveNode {
    const device = this.services.devices.find(deviceId);
    const zwave = device && device.appId === appId ? zwaveDataOf(device) : null;
    if (!device || !zwave) throw notFound('Z-Wave device', deviceId);
    const driver = this.stick?.driver;
    if (!driver) throw noController(this.stick);
    if (zwave.homeId !== this.stick?.homeId())
      throw new HearthError('unavailable', `${device.name} belongs to another Z-Wave network (home id ${zwave.homeId})`);
    const node = driver.controller.nodes.get(zwave.nodeId);
    if (!node) throw new HearthError('unavailable', `Z-Wave node ${zwave.nodeId} of ${device.name} is not in the network`);
    return node;
  }

  getNode(appId: string, deviceId: string): Json {
    const node = this.#node(appId, deviceId);
    const { NodeStatus } = zwaveJs();
    const label = (value: { label?: string } | undefined) => value?.label ?? null;
    return {
      nodeId: node.id,
      manufacturerId: node.manufacturerId ?? null,
      productTypeId: node.productType ?? null,
      productId: node.productId ?? null,
      firmwareId: null,
      // zwave-js keeps the basic class as a number only; the generic and specific ones carry their names.
      deviceClassBasic: null,
      deviceClassGeneric: label(node.deviceClass?.generic),
      deviceClassSpecific: label(node.deviceClass?.specific),
      battery: node.supportsCC(BATTERY),
      // A sleeping node is online: its commands wait for it to wake. Only a dead one is not.
      online: node.status !== NodeStatus.Dead,
      commandClasses: appCommandClasses(node).map((ccId) => ({
        id: ccId,
        name: commandClassName(ccId),
        version: node.getCCVersion(ccId),
        commands: commandsOf(ccId),
      })),
    };
  }

  async command(appId: string, deviceId: string, commandClass: string, command: string, args: Json): Promise<Json | null> {
    const node = this.#node(appId, deviceId);
    const ccId = appCommandClasses(node).find((id) => commandClassName(id) === commandClass);
    if (ccId === undefined) throw notFound(`Command class of Z-Wave node ${node.id}`, commandClass);
    try {
      return await runCommand(node, ccId, commandClass, command, args);
    } catch (error) {
      if (error instanceof HearthError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new HearthError('unavailable', `Z-Wave node ${node.id} did not take ${command}: ${reason}`);
    }
  }

  async sendCommand(appId: string, deviceId: string, commandClassId: number, commandId: number, params: number[]): Promise<void> {
    const node = this.#node(appId, deviceId);
    const { CommandClass } = await import('@zwave-js/cc');
    const frame = new CommandClass({
      nodeId: node.id,
      ccId: commandClassId,
      ccCommand: commandId,
      payload: Uint8Array.from(params),
    });
    try {
      await this.stick!.whileOpen(this.stick!.driver!.sendCommand(frame));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new HearthError('unavailable', `Z-Wave node ${node.id} did not take the command: ${reason}`);
    }
  }

  /** A value a node reported: a `report` of its command class for each app device of the node whose app runs. */
  #reported(node: ZWaveNode, value: ValueID & { newValue: unknown }): void {
    const devices = this.#appDevices(node.id);
    if (devices.length === 0) return;
    const metadata = node.getValueMetadata(value) as { ccSpecific?: Record<string, unknown> };
    const report = reportOf(node, { ...value, ccSpecific: metadata.ccSpecific });
    if (!report) return;
    const { host } = this.services.processes;
    for (const device of devices) host.emit(device.appId, 'zwave.report', { deviceId: device.id, ...report });
  }
}
