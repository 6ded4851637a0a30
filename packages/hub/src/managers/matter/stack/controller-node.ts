import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ClientNode, type Endpoint, Environment, Filesystem, Logger, ServerNode, StorageService } from '@matter/main';
import { OnOffClient } from '@matter/main/behaviors/on-off';
import { DirectoryBlobStorageDriver, FileStorageDriver, NodeJsFilesystem } from '@matter/nodejs';
import { capabilitiesOf, deviceTypeOf } from './device-types';

/** One endpoint of a commissioned node that carries a device type the hub supports. */
export interface CommissionedEndpoint {
  endpoint: number;
  deviceType: number;
  capabilities: string[];
}

/** A node the hub's controller commissioned onto its fabric. */
export interface CommissionedNode {
  /** The controller's local id of the node (stable across restarts, kept in the fabric storage). */
  peerId: string;
  /** The operational node id on the hub's fabric. */
  nodeId: string;
  vendorId: number | null;
  productName: string | null;
  endpoints: CommissionedEndpoint[];
}

/** A value a node reported for one of its endpoints (through the hub's subscription). */
export interface ReportedValue {
  peerId: string;
  endpoint: number;
  capability: string;
  value: boolean;
}

export interface MatterControllerOptions {
  /** Where the fabric (root certificate, operational credentials, peers) is kept: a folder of the hub's data. */
  storageDir: string;
  /** The UDP port the controller's node listens on (0: any free port). */
  port: number;
  /** How long commissioning may take, discovery included. */
  commissionTimeoutMs: number;
  /** Called with each value a node reports; the manager turns them into capability values. */
  onReport: (report: ReportedValue) => void;
  /** Called when background work fails, with what it was doing. */
  onError: (doing: string, error: unknown) => void;
}

/**
 * The hub as a Matter controller, on matter.js: a controller node with the hub's own fabric, whose commissioned
 * peers it subscribes to. Each hub gets its own matter.js environment so that its fabric lives in its own data
 * folder (several hubs run in one test process).
 */
export class MatterControllerNode {
  #node: ServerNode | null = null;
  /** The On/Off event sources already followed (one listener each). */
  readonly #attached = new WeakSet<object>();
  /** The peers whose structure changes are followed. */
  readonly #watched = new WeakSet<ClientNode>();

  constructor(private readonly options: MatterControllerOptions) {}

  async start(): Promise<void> {
    // matter.js logs through one process-wide logger; the hub wants its errors, not its protocol trace.
    Logger.level = 'error';
    mkdirSync(this.options.storageDir, { recursive: true });
    const environment = new Environment(`hearth-matter-${this.options.storageDir}`, Environment.default);
    environment.set(Filesystem, new NodeJsFilesystem(this.options.storageDir));
    const storage = new StorageService(environment);
    storage.registerDriver(FileStorageDriver);
    storage.registerBlobDriver(DirectoryBlobStorageDriver);
    storage.defaultDriver = 'file';
    storage.defaultBlobDriver = 'dir';
    const node = await ServerNode.create({
      id: 'controller',
      environment,
      network: { port: this.options.port },
      // The controller is not itself commissionable: no pairing code is advertised for the hub.
      commissioning: { enabled: false },
    } as Parameters<typeof ServerNode.create>[0]);
    this.#node = node;
    this.#followClusters(node);
    await node.start();
    // Peers commissioned before a restart come back from the fabric storage; follow their values again.
    for (const peer of node.peers) this.#watch(peer);
  }

  async stop(): Promise<void> {
    const node = this.#node;
    this.#node = null;
    await node?.close();
  }

  #require(): ServerNode {
    if (!this.#node) throw new Error('The Matter controller is not running');
    return this.#node;
  }

  /** Commissions the node that advertises the pairing code (11/21-digit manual code or `MT:` QR payload). */
  async commission(pairingCode: string): Promise<CommissionedNode> {
    const node = this.#require();
    const peer = await node.peers.commission({
      pairingCode,
      timeout: this.options.commissionTimeoutMs,
    } as Parameters<ServerNode['peers']['commission']>[0]);
    this.#watch(peer);
    // A peer commissioned while the controller is online is not always brought online with it; online is what
    // keeps its subscription (and so the values it reports) going.
    if (!peer.lifecycle.isOnline) await peer.start();
    return this.describe(peer);
  }

  /** A commissioned peer by its local id. */
  peer(peerId: string): ClientNode | undefined {
    return this.#node?.peers.get(peerId);
  }

  peers(): ClientNode[] {
    return this.#node ? [...this.#node.peers] : [];
  }

  describe(peer: ClientNode): CommissionedNode {
    const basic = peer.maybeStateOf('basicInformation') as { vendorId?: number; productName?: string } | undefined;
    const address = (peer.maybeStateOf('commissioning') as { peerAddress?: { nodeId: bigint | number } } | undefined)
      ?.peerAddress;
    return {
      peerId: peer.id,
      nodeId: address ? String(address.nodeId) : '',
      vendorId: basic?.vendorId ?? null,
      productName: basic?.productName ?? null,
      endpoints: [...peer.parts]
        .map((endpoint) => ({
          endpoint: Number(endpoint.number),
          deviceType: deviceTypeOf(endpoint),
          capabilities: capabilitiesOf(endpoint),
        }))
        .filter((e) => e.capabilities.length > 0),
    };
  }

  /** Sends the On/Off command matching `value`; resolves once the node acknowledged it. */
  async setOnOff(peerId: string, endpointNumber: number, value: boolean): Promise<void> {
    const endpoint = this.#endpoint(peerId, endpointNumber);
    const commands = endpoint.commandsOf(OnOffClient);
    await (value ? commands.on() : commands.off());
  }

  #endpoint(peerId: string, endpointNumber: number): Endpoint {
    const peer = this.peer(peerId);
    if (!peer) throw new Error(`Matter node ${peerId} is not commissioned on the hub's fabric`);
    const endpoint = peer.parts.get(endpointNumber);
    if (!endpoint) throw new Error(`Matter node ${peerId} has no endpoint ${endpointNumber}`);
    return endpoint;
  }

  /**
   * Follows the supported attributes of a peer's endpoints (the peer's subscription feeds these events). matter.js
   * may replace an endpoint's cluster behavior once it has read the node (its listeners go with the old one), so
   * the listener is attached to every On/Off behavior as it is installed or replaced, once per behavior.
   */
  #followClusters(node: ServerNode): void {
    node.peers.clusterInstalled(OnOffClient).on((endpoint) => this.#attach(endpoint));
  }

  #watch(peer: ClientNode): void {
    if (this.#watched.has(peer)) return;
    this.#watched.add(peer);
    for (const endpoint of peer.parts) this.#attach(endpoint);
    peer.lifecycle.changed.on(() => {
      for (const endpoint of peer.parts) this.#attach(endpoint);
    });
  }

  #attach(endpoint: Endpoint): void {
    if (!endpoint.behaviors.has('onOff')) return;
    const events = endpoint.eventsOf(OnOffClient);
    if (this.#attached.has(events)) return;
    this.#attached.add(events);
    events.onOff$Changed.on((value) => {
      const peerId = peerIdOf(endpoint);
      try {
        this.options.onReport({ peerId, endpoint: Number(endpoint.number), capability: 'onoff', value });
      } catch (error) {
        this.options.onError(`storing the On/Off value node ${peerId} reported`, error);
      }
    });
  }
}

/** The local id of the peer an endpoint belongs to (the client node above it). */
function peerIdOf(endpoint: Endpoint): string {
  let current: Endpoint | undefined = endpoint;
  while (current && !(current instanceof ClientNode)) current = current.owner;
  return current?.id ?? '';
}

/** The fabric folder of a hub: beside its database in its data directory. */
export const fabricDir = (dataDir: string, hubId: string) => join(dataDir, `${hubId}.matter`);
