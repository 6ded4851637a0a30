import { mkdirSync } from 'node:fs';
import {
  ChangeNotificationService,
  ClientNode,
  type Endpoint,
  Environment,
  Filesystem,
  Logger,
  NetworkClient,
  ServerNode,
  StorageService,
} from '@matter/main';
import { DirectoryBlobStorageDriver, FileStorageDriver, NodeJsFilesystem } from '@matter/nodejs';
import type { Clock } from '../../../core/clock';
import {
  CLUSTER_CAPABILITIES,
  type ClusterCapability,
  type ClusterState,
  capabilitiesOf,
  capabilityMappingsOf,
  clusterStateOf,
  deviceTypeOf,
  mappingOn,
} from './device-types';
import { LivenessWatch, silenceLimitMs } from './liveness';

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

/** A device's setup passcode and the discriminator it advertises in pairing mode (long: 12 bits, short: 4). */
export type CommissioningCode = { passcode: number } & ({ longDiscriminator: number } | { shortDiscriminator: number });

/** A value a node reported for one of its endpoints (through the hub's subscription). */
export interface ReportedValue {
  peerId: string;
  endpoint: number;
  capability: string;
  value: unknown;
  /** The value as the controller holds it, after a report that left it unchanged there (see `#followClusters`). */
  restated?: boolean;
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
  /** Called when the hub's subscription to a node goes down (unreachable) or comes up again. */
  onReachability: (peerId: string, reachable: boolean) => void;
  /**
   * The report interval ceiling the hub asks of the nodes it commissions (ms), and with it a watch that calls a
   * node unreachable once it is silent for longer ({@link LivenessWatch}). Unset: matter.js's defaults (1 minute
   * for mains-powered nodes) and its own, slower, notice of a lost node.
   */
  subscriptionCeilingMs?: number;
  /** How long commissioning waits for the hub's subscription to the new node before it gives up. */
  subscribeTimeoutMs: number;
  /** The hub's clock (its timers). */
  clock: Pick<Clock, 'setTimeout'>;
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
  /** The peers whose structure changes are followed. */
  readonly #watched = new WeakSet<ClientNode>();

  readonly #liveness: LivenessWatch | null;

  constructor(private readonly options: MatterControllerOptions) {
    const ceiling = options.subscriptionCeilingMs;
    this.#liveness = ceiling
      ? new LivenessWatch(
          options.clock,
          silenceLimitMs(ceiling),
          (peer, reachable) => this.#reachable(peer, reachable),
          options.onError,
        )
      : null;
  }

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
    // Closing ends every subscription: that is the hub going away, not the nodes, so it is not reported.
    this.#node = null;
    this.#liveness?.stop();
    await node?.close();
  }

  #require(): ServerNode {
    if (!this.#node) throw new Error('The Matter controller is not running');
    return this.#node;
  }

  /**
   * Commissions the node that advertises a manual pairing code, or the passcode and discriminator of a code the hub
   * decoded itself (a QR payload's 12-bit discriminator finds its device more surely than a manual code's 4 bits).
   */
  async commission(code: string | CommissioningCode): Promise<CommissionedNode> {
    const node = this.#require();
    const peer = await node.peers.commission({
      ...(typeof code === 'string' ? { pairingCode: code } : code),
      timeout: this.options.commissionTimeoutMs,
      ...(this.options.subscriptionCeilingMs
        ? { defaultSubscription: { maxIntervalCeiling: this.options.subscriptionCeilingMs } }
        : {}),
    } as Parameters<ServerNode['peers']['commission']>[0]);
    this.#watch(peer);
    // A peer commissioned while the controller is online is not always brought online with it; online is what
    // keeps its subscription (and so the values it reports) going.
    if (!peer.lifecycle.isOnline) await peer.start();
    // The node is only usable once the hub's subscription to it is established: before that, values it reports
    // are lost (a first attempt that fails right after commissioning is retried only after 15 s or more).
    await this.#subscribed(peer);
    return this.describe(peer);
  }

  /** Whether the hub's subscription to a peer is established (its reports reach the hub). */
  async isSubscribed(peer: ClientNode): Promise<boolean> {
    if (!peer.lifecycle.isOnline) return false;
    return peer.act((agent) => agent.get(NetworkClient).subscriptionActive);
  }

  /** Resolves once the subscription to `peer` is active; fails after `subscribeTimeoutMs`. */
  async #subscribed(peer: ClientNode): Promise<void> {
    const events = peer.eventsOf(NetworkClient);
    let listener: ((active: boolean) => void) | undefined;
    let cancelTimer: (() => void) | undefined;
    const active = new Promise<void>((resolve, reject) => {
      listener = (isActive) => {
        if (isActive) resolve();
      };
      events.subscriptionStatusChanged.on(listener);
      cancelTimer = this.options.clock.setTimeout(
        () => reject(new SubscriptionTimeout(peer.id, this.options.subscribeTimeoutMs)),
        this.options.subscribeTimeoutMs,
      );
    });
    try {
      if (!(await this.isSubscribed(peer))) await active;
    } finally {
      cancelTimer?.();
      if (listener) events.subscriptionStatusChanged.off(listener);
    }
  }

  /** A commissioned peer by its local id. */
  peer(peerId: string): ClientNode | undefined {
    return this.#node?.peers.get(peerId);
  }

  /**
   * The nodes on the hub's fabric. matter.js also keeps a peer for each commissionable device a discovery came
   * across (every device advertising on the network while the hub commissioned one): those are not the hub's.
   */
  peers(): ClientNode[] {
    return this.#node ? [...this.#node.peers].filter((peer) => peer.lifecycle.isCommissioned) : [];
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

  /** Sets a capability through its cluster command; resolves once the node acknowledged it. */
  async write(peerId: string, endpointNumber: number, capability: string, value: unknown): Promise<void> {
    const endpoint = await this.#endpoint(peerId, endpointNumber);
    const mapping = mappingOn(endpoint, capability);
    if (!mapping?.write) throw new Error(`This Matter device cannot set ${capability}`);
    await mapping.write(endpoint, value, clusterStateOf(endpoint, mapping) ?? {});
  }

  async #endpoint(peerId: string, endpointNumber: number): Promise<Endpoint> {
    const peer = this.peer(peerId);
    if (!peer) throw new Error(`Matter node ${peerId} is not commissioned on the hub's fabric`);
    // A node whose structure the fabric storage does not hold yet (a fabric restored from a backup taken right
    // after commissioning) learns its endpoints from the subscription's first report: wait for it.
    if (peer.parts.get(endpointNumber) === undefined) await this.#subscribed(peer);
    const endpoint = peer.parts.get(endpointNumber);
    if (!endpoint) throw new Error(`Matter node ${peerId} has no endpoint ${endpointNumber}`);
    return endpoint;
  }

  /**
   * Follows the supported attributes of every peer's endpoints through matter.js's change notifications, which the
   * peers' subscriptions feed: one path for every value, whatever matter.js does to the behaviors meanwhile (while it
   * first reads a newly commissioned node it replaces cluster behaviors as it learns their features, so listeners on a
   * behavior's own events were lost then). A report that touched a cluster without changing the followed attribute
   * in the controller's copy restates the value held there: reports of the first moments after commissioning can be
   * lost, so the hub's write may never have been confirmed into that copy, and a later report of the old value is no
   * change to it while the hub holds another.
   */
  #followClusters(node: ServerNode): void {
    node.env.get(ChangeNotificationService).change.on((change) => {
      if (change.kind !== 'update' || !FOLLOWED_BEHAVIORS.has(change.behavior.id)) return;
      // Only the peers' endpoints, not the controller's own.
      if (peerIdOf(change.endpoint) === '') return;
      for (const mapping of capabilityMappingsOf(change.endpoint)) {
        if (mapping.client.id !== change.behavior.id) continue;
        const state = clusterStateOf(change.endpoint, mapping);
        if (state?.[mapping.attributes[0] ?? ''] === undefined) continue;
        const changed = mapping.attributes.some((attribute) => change.properties?.includes(attribute) ?? false);
        this.#report(change.endpoint, mapping, state, !changed);
      }
    });
  }

  #watch(peer: ClientNode): void {
    if (this.#watched.has(peer)) return;
    this.#watched.add(peer);
    // Reachability follows the subscription: matter.js keeps retrying a lost one and says when it is back.
    peer.eventsOf(NetworkClient).subscriptionStatusChanged.on((active) => this.#reachable(peer, active));
    this.#liveness?.watch(peer);
  }

  #reachable(peer: ClientNode, reachable: boolean): void {
    if (!this.#node) return;
    try {
      this.options.onReachability(peer.id, reachable);
    } catch (error) {
      this.options.onError(`recording whether node ${peer.id} is reachable`, error);
    }
  }

  #report(endpoint: Endpoint, mapping: ClusterCapability, state: ClusterState, restated: boolean): void {
    const peerId = peerIdOf(endpoint);
    try {
      this.options.onReport({
        peerId,
        endpoint: Number(endpoint.number),
        capability: mapping.capability,
        value: mapping.toCapability(state),
        ...(restated ? { restated } : {}),
      });
    } catch (error) {
      this.options.onError(`storing the ${mapping.capability} value node ${peerId} reported`, error);
    }
  }
}

/** The hub's subscription to a newly commissioned node was not established in time. */
export class SubscriptionTimeout extends Error {
  constructor(peerId: string, ms: number) {
    super(`The node ${peerId} was commissioned, but the hub could not subscribe to it within ${ms / 1000} s`);
  }
}

/** The clusters (behavior ids) some capability is read from: other clusters' reports are not looked at. */
const FOLLOWED_BEHAVIORS: ReadonlySet<string> = new Set(CLUSTER_CAPABILITIES.map((c) => c.client.id));

/** The local id of the peer an endpoint belongs to (the client node above it). */
function peerIdOf(endpoint: Endpoint): string {
  let current: Endpoint | undefined = endpoint;
  while (current && !(current instanceof ClientNode)) current = current.owner;
  return current?.id ?? '';
}
