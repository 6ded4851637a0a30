import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Driver, ValueID, ZWaveNode } from 'zwave-js';
import type { HubContext } from '../../platform/context';
import { settingOnce } from '../../runtime/radio-network';

type Json = Record<string, unknown>;

/** A value a node reported (or zwave-js set on its behalf), with the node it belongs to. */
export type NodeValueListener = (node: ZWaveNode, args: ValueID & { newValue: unknown }) => void;

/** A node's reachability as zwave-js sees it: a sleeping node is asleep or awake, never dead for sleeping. */
export type NodeReachability = 'dead' | 'alive' | 'asleep' | 'awake';
export type NodeStatusListener = (node: ZWaveNode, status: NodeReachability) => void;

/** zwave-js, loaded by the first hub that opens a stick: hubs without one do not pay for importing it. */
type ZwaveJs = typeof import('zwave-js');
let loaded: ZwaveJs | null = null;

/** zwave-js itself, for the parts that run only once a stick opened (and so loaded it). */
export function zwaveJs(): ZwaveJs {
  if (!loaded) throw new Error('zwave-js is not loaded: no Z-Wave stick was opened');
  return loaded;
}

/** The network keys zwave-js asks for: S0, the three S2 classes, and the two S2 classes of Long Range. */
const KEY_NAMES = ['S0_Legacy', 'S2_Unauthenticated', 'S2_Authenticated', 'S2_AccessControl'] as const;
const LONG_RANGE_KEY_NAMES = ['S2_Authenticated', 'S2_AccessControl'] as const;

interface NetworkKeys {
  classic: Record<(typeof KEY_NAMES)[number], string>;
  longRange: Record<(typeof LONG_RANGE_KEY_NAMES)[number], string>;
}

const newKey = () => randomBytes(16).toString('hex');

/**
 * The hub's Z-Wave network keys, made once (16 random bytes each) and kept in its settings: a controller that
 * forgets them can no longer talk to its secure nodes, so they are never made again while the hub lives.
 */
export function networkKeys(context: HubContext): NetworkKeys {
  return settingOnce<NetworkKeys>(context, 'zwave.networkKeys', () => ({
    classic: Object.fromEntries(KEY_NAMES.map((k) => [k, newKey()])) as NetworkKeys['classic'],
    longRange: Object.fromEntries(LONG_RANGE_KEY_NAMES.map((k) => [k, newKey()])) as NetworkKeys['longRange'],
  }));
}

const toBytes = <K extends string>(keys: Record<K, string>) =>
  Object.fromEntries(Object.entries<string>(keys).map(([k, v]) => [k, Uint8Array.from(Buffer.from(v, 'hex'))])) as Record<
    K,
    Uint8Array<ArrayBuffer>
  >;

/** Where zwave-js keeps its network cache for this hub: in the hub's data folder, one folder per hub. */
export const zwaveCacheDir = (context: HubContext) => join(context.config.dataDir, `${context.config.id}.zwave`);

/**
 * The Z-Wave stick the hub opened with zwave-js: a serial device, or `tcp://host:port` (zwave-js's mock server).
 * `open` answers once the driver is ready (the controller identified); nodes are interviewed in the background.
 */
export class ZwaveStick {
  #driver: Driver | null = null;
  #failure: string | null = null;
  #ready = false;
  #closed = false;
  readonly #valueListeners = new Set<NodeValueListener>();
  readonly #statusListeners = new Set<NodeStatusListener>();
  /** Rejects when the stick closes; `whileOpen` races commands against it. */
  #rejectClosed: (error: Error) => void = () => undefined;
  readonly #closedSignal = new Promise<never>((_, reject) => {
    this.#rejectClosed = reject;
  });

  constructor(
    private readonly context: HubContext,
    readonly port: string,
  ) {}

  /** The driver once the controller is identified (zwave-js refuses to answer about it before), and still working. */
  get driver(): Driver | null {
    return this.#ready && !this.#failure ? this.#driver : null;
  }

  /** Why the stick is not ready, when it failed to open or failed later. */
  get failure(): string | null {
    return this.#failure;
  }

  /** Opens the stick; a failure is kept in `failure` and logged to the journal, never thrown. */
  async open(): Promise<void> {
    try {
      loaded ??= await import('zwave-js');
      // The hub may have stopped while zwave-js loaded.
      if (this.#closed) return;
      const keys = networkKeys(this.context);
      const cacheDir = zwaveCacheDir(this.context);
      mkdirSync(cacheDir, { recursive: true });
      const driver = new loaded.Driver(this.port, {
        securityKeys: toBytes(keys.classic),
        securityKeysLongRange: toBytes(keys.longRange),
        storage: { cacheDir, lockDir: cacheDir },
        logConfig: { enabled: false },
      });
      this.#driver = driver;
      driver.on('error', (error) => {
        this.#failure = error.message;
        this.context.journal.log(`Z-Wave: the driver on ${this.port} failed: ${error.message}`);
      });
      const ready = new Promise<void>((resolve) =>
        driver.once('driver ready', () => {
          this.#ready = true;
          for (const node of driver.controller.nodes.values()) this.#watch(node);
          driver.controller.on('node added', (node) => this.#watch(node));
          resolve();
        }),
      );
      await driver.start();
      await ready;
    } catch (error) {
      this.#failure = error instanceof Error ? error.message : String(error);
      this.context.journal.log(`Z-Wave: opening ${this.port} failed: ${this.#failure}`);
    }
  }

  /** Tells `listener` every value any node gets from now on; answers the function that stops it. */
  onNodeValue(listener: NodeValueListener): () => void {
    this.#valueListeners.add(listener);
    return () => this.#valueListeners.delete(listener);
  }

  /** Tells `listener` each time a node is found dead, alive again, asleep or awake; answers the function that stops it. */
  onNodeStatus(listener: NodeStatusListener): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /**
   * zwave-js calls listeners inside its own work (closing its databases too): a listener's failure must not break
   * it, and a closing stick tells nobody, as the values' databases may be closed already.
   */
  #tell<A extends unknown[]>(listeners: Iterable<(...args: A) => void>, what: string, nodeId: number, ...args: A): void {
    if (this.#closed) return;
    for (const listener of listeners) {
      try {
        listener(...args);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.context.journal.log(`Z-Wave: handling ${what} of node ${nodeId} failed: ${reason}`);
      }
    }
  }

  #watch(node: ZWaveNode): void {
    const tell = (changed: ZWaveNode, args: ValueID & { newValue: unknown }) =>
      this.#tell(this.#valueListeners, 'a value', changed.id, changed, args);
    node.on('value updated', tell);
    // A value's first report adds it rather than updating it.
    node.on('value added', tell);
    const status = (reachability: NodeReachability) => (changed: ZWaveNode) =>
      this.#tell(this.#statusListeners, `its status ${reachability}`, changed.id, changed, reachability);
    node.on('dead', status('dead'));
    node.on('alive', status('alive'));
    node.on('sleep', status('asleep'));
    node.on('wake up', status('awake'));
  }

  /**
   * Settles as `command` does, or rejects once the stick closes. zwave-js leaves a command queued for a sleeping node
   * unsettled when its driver is destroyed: a caller waiting on it (an HTTP request's capability write) would hold
   * the hub's stop until the request's own timeout (60 s, measured in stop-with-pending-write.test.ts).
   */
  whileOpen<T>(command: Promise<T>): Promise<T> {
    return Promise.race([command, this.#closedSignal]);
  }

  async close(): Promise<void> {
    this.#closed = true;
    // Nobody waits for the signal when no command is pending: a rejection nobody handles must not be reported.
    this.#closedSignal.catch(() => undefined);
    this.#rejectClosed(new Error('the Z-Wave controller stopped (the hub is stopping)'));
    const driver = this.#driver;
    this.#driver = null;
    this.#ready = false;
    try {
      await driver?.destroy();
    } catch (error) {
      this.context.journal.log(`Z-Wave: closing ${this.port} failed: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }

  homeId(): string | null {
    const id = this.driver?.controller.homeId;
    return id === undefined ? null : id.toString(16).padStart(8, '0');
  }

  controllerNodeId(): number | null {
    return this.driver?.controller.ownNodeId ?? null;
  }

  firmwareVersion(): string | null {
    return this.driver?.controller.firmwareVersion ?? null;
  }

  /** The nodes as zwave-js knows them, the controller first. */
  nodes(): Json[] {
    const driver = this.driver;
    if (!driver) return [];
    return [...driver.controller.nodes.values()].sort((a, b) => a.id - b.id).map(describeNode);
  }

  node(nodeId: number): ZWaveNode | undefined {
    return this.driver?.controller.nodes.get(nodeId);
  }
}

/** A node as the zwave manager's state shows it (only called once zwave-js is loaded). */
export function describeNode(node: ZWaveNode): Json {
  const { InterviewStage, NodeStatus } = zwaveJs();
  return {
    nodeId: node.id,
    isController: node.isControllerNode,
    name: node.name ?? null,
    status: NodeStatus[node.status].toLowerCase(),
    ready: node.ready,
    interviewStage: InterviewStage[node.interviewStage],
    manufacturerId: node.manufacturerId ?? null,
    productTypeId: node.productType ?? null,
    productId: node.productId ?? null,
    commandClasses: node
      .getSupportedCCInstances()
      .map((cc) => cc.ccId)
      .sort((a, b) => a - b),
    securityClass: node.getHighestSecurityClass() ?? null,
  };
}
