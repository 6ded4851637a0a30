import { existsSync } from 'node:fs';
import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { ClientNode } from '@matter/main';
import type { CapabilityDriver } from '../../core/device-control';
import type { HubContext } from '../../platform/context';
import type { HubServices } from '../../runtime/services';
import { driverFullId } from '../apps/catalogue';
import type { DeviceRecord } from '../devices/service';
import { fabricDir } from './fabric-dir';
import { commissioningError, parsePairingCode } from './pairing-code';
import { type CommissionedNode, MatterControllerNode, type ReportedValue } from './stack/controller-node';
import { classOf, WRITABLE_CAPABILITIES } from './stack/device-types';
import { transportOf } from './stack/node-admin';

/**
 * The built-in driver whose devices are endpoints of nodes on the hub's own Matter fabric: one driver for every
 * Matter device type, each device's capabilities coming from the clusters its endpoint carries.
 */
export const MATTER_DRIVER_ID = driverFullId('com.hearth.virtual', 'matter_clusters');

/** How long commissioning may take, discovery on the network included (config `matterCommissionTimeoutMs`). */
const COMMISSION_TIMEOUT_MS = 60_000;

/** How long a newly commissioned node may take to accept the hub's subscription (its first retry is after 15 s). */
const SUBSCRIBE_TIMEOUT_MS = 45_000;

/** What users see on a device whose node the hub lost. */
export const UNREACHABLE_MESSAGE = 'The Matter node does not answer on the network: the hub keeps trying to reach it.';

/** What a Matter device keeps in its `data`: which node and endpoint it is. */
interface MatterDeviceData {
  id: string;
  matter: { peerId: string; nodeId: string; endpoint: number };
}

type Json = Record<string, unknown>;

/** One candidate device per supported endpoint of a node, as a pair session lists them. */
function candidates(node: CommissionedNode, name: string) {
  // One driver for every Matter device: each endpoint's capabilities come from the clusters it carries.
  const supported = node.endpoints;
  return supported.map((e) => ({
    name: supported.length === 1 ? name : `${name} ${e.endpoint}`,
    class: classOf(e.deviceType),
    capabilities: e.capabilities,
    data: { id: `${node.peerId}:${e.endpoint}`, matter: { peerId: node.peerId, nodeId: node.nodeId, endpoint: e.endpoint } },
    store: { vendorId: node.vendorId, productName: node.productName, deviceType: e.deviceType },
  }));
}

/** The setting that records which node a pairing code commissioned (by the code's digest). */
const codeKey = (key: string) => `matter.commissionedCode.${key}`;

const matterDataOf = (device: DeviceRecord): MatterDeviceData['matter'] | null => {
  const matter = (device.data as Partial<MatterDeviceData>).matter;
  return matter && typeof matter.peerId === 'string' ? matter : null;
};

/**
 * The hub's own Matter fabric, on the matter.js controller (`stack/`): commissions nodes from a pair session's
 * `matter_code`, makes one candidate device per supported endpoint, sends capability writes as cluster commands
 * through the device-control path, and stores the values nodes report through their subscriptions.
 */
export class MatterFabric {
  #controller: MatterControllerNode | null = null;
  #starting: Promise<MatterControllerNode> | null = null;
  readonly #undo: (() => void)[] = [];

  constructor(
    private readonly context: HubContext,
    private readonly services: Pick<HubServices, 'devices' | 'deviceControl' | 'pairing'>,
  ) {}

  /**
   * Routes the Matter driver's writes and pairing here. The matter.js controller itself starts only for a hub that
   * has a fabric already, or at its first commissioning: a hub that never uses Matter keeps neither its memory nor
   * its storage writes (which otherwise go on in the hub's data folder after a quick stop).
   */
  async start(): Promise<void> {
    const driver: CapabilityDriver = { setCapabilityValues: (device, values) => this.#write(device.id, values) };
    this.#undo.push(
      this.services.deviceControl.useRadioDriver(MATTER_DRIVER_ID, driver),
      this.services.pairing.useRadioEvent(MATTER_DRIVER_ID, 'matter_code', (data, name) => this.#commission(data, name)),
    );
    if (existsSync(this.#storageDir())) await this.#startController();
  }

  #storageDir(): string {
    return fabricDir(this.context.config.dataDir, this.context.config.id);
  }

  #commissionTimeoutMs(): number {
    return this.context.config.matterCommissionTimeoutMs ?? COMMISSION_TIMEOUT_MS;
  }

  /** Starts the matter.js controller once; later callers wait for the same start. */
  #startController(): Promise<MatterControllerNode> {
    this.#starting ??= (async () => {
      const controller = new MatterControllerNode({
        storageDir: this.#storageDir(),
        port: 0,
        commissionTimeoutMs: this.#commissionTimeoutMs(),
        subscriptionCeilingMs: this.context.config.matterSubscriptionCeilingMs,
        subscribeTimeoutMs: SUBSCRIBE_TIMEOUT_MS,
        clock: this.context.clock,
        onReport: (report) => this.#stored(report),
        onReachability: (peerId, reachable) => this.#reachability(peerId, reachable),
        onError: (doing, error) => this.#failed(doing, error),
      });
      await controller.start();
      this.#controller = controller;
      return controller;
    })();
    return this.#starting;
  }

  async stop(): Promise<void> {
    for (const undo of this.#undo.splice(0)) undo();
    const starting = this.#starting;
    this.#starting = null;
    this.#controller = null;
    // A start that failed told its caller (the hub's start, or the pair session) already.
    const controller = await starting?.catch(() => null);
    await controller?.stop();
  }

  /**
   * Makes the hub devices of a commissioned node that has none (one per supported endpoint, as pairing would);
   * a node that has its devices keeps them.
   */
  makeDevices(peer: ClientNode): { created: boolean; devices: DeviceRecord[] } {
    const existing = this.devicesOf(peer.id);
    if (existing.length > 0) return { created: false, devices: existing };
    const driver = this.services.devices.driverOf({ driverId: MATTER_DRIVER_ID } as DeviceRecord);
    if (!driver) throw new HearthError('unavailable', 'The built-in Matter driver is not installed');
    const node = this.#require().describe(peer);
    const devices = candidates(node, node.productName ?? 'Matter device').map((candidate) =>
      this.services.devices.create(driver, candidate),
    );
    return { created: true, devices };
  }

  /** Removes a node: the hub leaves its fabric (the node forgets the hub), then its devices are deleted. */
  async removeNode(peer: ClientNode): Promise<void> {
    await peer.decommission();
    for (const device of this.devicesOf(peer.id)) this.services.devices.delete(device.id);
  }

  /** Whether the matter.js controller is running (it starts with the hub's first commissioning). */
  running(): boolean {
    return this.#controller !== null;
  }

  #require(): MatterControllerNode {
    if (!this.#controller) throw new HearthError('unavailable', 'The Matter controller is not running');
    return this.#controller;
  }

  /** The commissioned peers on the hub's fabric (none while the controller is not running). */
  peers(): ClientNode[] {
    return this.#controller?.peers() ?? [];
  }

  /** A commissioned node by its id; 404 for any other id. */
  peer(id: string): ClientNode {
    const peer = this.peers().find((p) => p.id === id);
    if (!peer) throw notFound('Matter node', id);
    return peer;
  }

  /** The node of a hub device; 404 for a device that is not an endpoint of a node on the hub's fabric. */
  peerOfDevice(deviceId: string): ClientNode {
    const device = this.services.devices.find(deviceId);
    const matter = device && device.driverId === MATTER_DRIVER_ID ? matterDataOf(device) : null;
    if (!matter) throw notFound('Matter device', deviceId);
    return this.peer(matter.peerId);
  }

  /** A node as the manager's calls answer it, with the hub devices of its endpoints. */
  view(peer: ClientNode): Json {
    const node = this.#require().describe(peer);
    const own = this.devicesOf(peer.id);
    return {
      id: node.peerId,
      nodeId: node.nodeId,
      deviceId: own[0]?.id ?? null,
      deviceIds: own.map((d) => d.id),
      name: own[0]?.name ?? node.productName ?? node.peerId,
      vendorId: node.vendorId,
      productName: node.productName,
      transport: transportOf(peer),
      reachable: peer.lifecycle.isOnline,
    };
  }

  /** The nodes on the hub's fabric, with the hub devices of their endpoints. */
  nodes(): Json[] {
    return this.peers().map((peer) => this.view(peer));
  }

  /** Commissions the node of a pairing code; answers one candidate device per supported endpoint. */
  async #commission(data: unknown, name: string): Promise<Json[]> {
    const { discovery, key } = parsePairingCode(((data ?? {}) as Record<string, unknown>).code);
    // A commissioned device is not in pairing mode: without this, its code would only time out as "not found".
    const known = this.context.settings.get<string | null>(codeKey(key), null);
    if (known !== null && this.peers().some((peer) => peer.id === known))
      throw new HearthError('already_commissioned', `This device is already commissioned on the hub (Matter node ${known})`);
    let node: CommissionedNode;
    try {
      node = await (await this.#startController()).commission(discovery);
    } catch (error) {
      this.#failed('commissioning a Matter node', error);
      throw commissioningError(error, this.#commissionTimeoutMs());
    }
    this.context.settings.set(codeKey(key), node.peerId);
    return candidates(node, name);
  }

  /** A capability write of a Matter device: the node's cluster command, confirmed when the node acknowledged it. */
  async #write(deviceId: string, values: Readonly<Record<string, unknown>>): Promise<void> {
    const device = this.services.devices.require(deviceId);
    const matter = matterDataOf(device);
    if (!matter) throw notFound('Matter device', deviceId);
    for (const [capability, value] of Object.entries(values)) {
      if (!WRITABLE_CAPABILITIES.has(capability))
        throw invalidParameter('capabilityId', `Matter devices cannot set ${capability}`);
      try {
        await this.#require().write(matter.peerId, matter.endpoint, capability, value);
      } catch (error) {
        if (error instanceof HearthError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new HearthError('unavailable', `The Matter node of ${device.name} did not take the command: ${message}`);
      }
    }
  }

  /** The devices of one node's endpoints. */
  devicesOf(peerId: string): DeviceRecord[] {
    return this.services.devices.list().filter((d) => d.driverId === MATTER_DRIVER_ID && matterDataOf(d)?.peerId === peerId);
  }

  /** The node's subscription went down or came back: its devices become unavailable with a reason, or available. */
  #reachability(peerId: string, reachable: boolean): void {
    const message = reachable ? null : UNREACHABLE_MESSAGE;
    for (const device of this.devicesOf(peerId)) {
      if (device.unavailableMessage === message) continue;
      this.services.devices.updateFromApp(device.id, { unavailableMessage: message });
    }
  }

  /** A value a node reported: stored on the devices of its endpoint, as the device's own report. */
  #stored(report: ReportedValue): void {
    for (const device of this.devicesOf(report.peerId)) {
      if (matterDataOf(device)?.endpoint !== report.endpoint) continue;
      // A restated value the hub already holds is no news (no capability event, no flow run).
      if (report.restated && this.services.devices.values(device.id).get(report.capability)?.value === report.value) continue;
      this.services.devices.reportCapabilityValue(device.id, report.capability, report.value, {
        source: { kind: 'app', appId: device.appId },
      });
    }
  }

  #failed(doing: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.context.journal.log(`Matter: ${doing} failed: ${message}`);
  }
}
