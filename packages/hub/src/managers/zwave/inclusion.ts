import { HearthError, invalidParameter } from '@hearth/contract';
import type { InclusionResult, InclusionUserCallbacks, ZWaveNode } from 'zwave-js';
import type { HubContext } from '../../platform/context';
import type { HubServices } from '../../runtime/services';
import type { ResolvedDriver } from '../apps/catalogue';
import type { RadioPairSession } from '../drivers/pairing';
import { noController } from './controller';
import { deleteNodeDevices, ZWAVE_DRIVER_ID, type ZwaveNodeDevices } from './devices';
import type { ZwaveStick } from './stick';
import { zwaveJs } from './stick';

type Json = Record<string, unknown>;

/** How long the controller waits for a device to join or leave, unless the pair view asks for another time. */
const JOIN_WINDOW_MS = 60_000;
/** How long a joined node may take to answer its interview (a sleeping one wakes when it joins). */
const INTERVIEW_MS = 120_000;

/** The security a pair view may ask an inclusion for: `auto` is S2 where the device has it, else what it needs. */
const SECURITY = ['auto', 'S2', 'S0', 'none'] as const;
type Security = (typeof SECURITY)[number];

/** What a controller that will not start (or ends) inclusion or exclusion mode answers: it is busy otherwise. */
const refused = (doing: string) =>
  new HearthError('zwave_busy', `The Z-Wave controller refused ${doing} a device: it may be busy with another task`);

/** What a join answers when its pair session closed while the controller waited for a device. */
const closed = () => new HearthError('conflict', 'The pair session closed before a Z-Wave device joined or left');

/** The ids a driver's `zwave` manifest section claims nodes by: a number, or a list of numbers, each. */
interface ZwaveManifest {
  manufacturerId?: number | number[];
  productTypeId?: number | number[];
  productId?: number | number[];
  /** Configuration parameters the device gets when it is included. */
  defaultConfiguration?: { id: number; size: 1 | 2 | 4; value: number | string }[];
  /** The wake-up interval (seconds) a sleeping device gets when it is included. */
  wakeUpInterval?: number;
}

const WAKE_UP = 0x84;
const CONFIGURATION = 0x70;
/** zwave-js's configuration value formats: signed unless the value only fits unsigned in its size. */
const SIGNED = 0;
const UNSIGNED = 1;

const zwaveSection = (driver: ResolvedDriver): ZwaveManifest | null => {
  const zwave = (driver.driver as { zwave?: unknown }).zwave;
  return typeof zwave === 'object' && zwave !== null ? (zwave as ZwaveManifest) : null;
};

const claimsId = (claimed: number | number[] | undefined, id: number | undefined) =>
  id !== undefined && (Array.isArray(claimed) ? claimed.includes(id) : claimed === id);

/** Whether a driver's `zwave` manifest section claims this node by its manufacturer, product type and product ids. */
export function driverClaimsNode(driver: ResolvedDriver, node: Pick<ZWaveNode, 'manufacturerId' | 'productType' | 'productId'>) {
  const zwave = zwaveSection(driver);
  return (
    zwave !== null &&
    claimsId(zwave.manufacturerId, node.manufacturerId) &&
    claimsId(zwave.productTypeId, node.productType) &&
    claimsId(zwave.productId, node.productId)
  );
}

/** A join in progress: what it waits for, and the PIN the pair view still owes when an S2 device asks for one. */
interface Join {
  readonly sessionId: string;
  readonly kind: 'inclusion' | 'exclusion';
  pin: ((pin: string | false) => void) | null;
  /** Ends the wait for a device when the session closes; null once a device was found (its join then completes). */
  close: (() => void) | null;
}

/**
 * Inclusion and exclusion through pair sessions (the `zwave_include` / `zwave_exclude` pair templates), on the hub's
 * zwave-js controller: one join at a time; an S2 device's PIN is asked of the pair view (`radio.stage` `pin`, answered
 * with the `zwave_s2_pin` event); the interviewed node becomes a device of the installed app driver whose `zwave`
 * section claims its ids, or else of the built-in generic driver. Without a stick, the Z-Wave drivers get
 * `no_controller`; the virtual app's stand-in driver then keeps its own made-up joins.
 */
export class ZwaveInclusion {
  #join: Join | null = null;
  #undo: (() => void) | null = null;
  /** Rejects when the hub stops: a join waiting on the radio (or on a clock that no longer runs) ends then. */
  #stopped: Promise<never> = Promise.race([]);
  #stop: ((error: Error) => void) | null = null;

  constructor(
    private readonly context: HubContext,
    private readonly services: Pick<HubServices, 'apps' | 'devices' | 'pairing'>,
    private readonly stick: ZwaveStick | null,
    private readonly nodeDevices: ZwaveNodeDevices,
  ) {}

  start(): void {
    this.#stopped = new Promise<never>((_, reject) => {
      this.#stop = reject;
    });
    // Nobody may be waiting when the hub stops.
    this.#stopped.catch(() => undefined);
    this.#undo = this.services.pairing.useRadioTemplate({
      // With a controller, every Z-Wave driver joins for real (the stand-in's devices become the generic driver's).
      claims: (driver) =>
        driver.id === ZWAVE_DRIVER_ID ||
        zwaveSection(driver) !== null ||
        (this.stick !== null && (driver.driver.connectivity ?? []).includes('zwave')),
      closed: (sessionId) => {
        if (this.#join?.sessionId === sessionId) this.#join.close?.();
      },
      events: {
        zwave_include: (session, data) => this.include(session, data),
        zwave_s2_pin: async (session, data) => this.enterPin(session, data),
        zwave_exclude: (session, data) => this.exclude(session, data),
      },
    });
  }

  stop(): void {
    this.#undo?.();
    this.#undo = null;
    this.#join?.pin?.(false);
    this.#stop?.(new HearthError('unavailable', 'The hub is stopping'));
  }

  /** Waits for `step`, or fails when the hub stops first. */
  #unlessStopped<T>(step: Promise<T>): Promise<T> {
    return Promise.race([step, this.#stopped]);
  }

  #driver() {
    const driver = this.stick?.driver;
    if (!driver) throw noController(this.stick);
    return driver;
  }

  /** Claims the controller for one join; a second one, or one zwave-js is running already, is refused. */
  #begin(session: RadioPairSession, kind: Join['kind']): Join {
    const driver = this.#driver();
    if (this.#join) throw new HearthError('zwave_busy', `The Z-Wave controller is busy with an ${this.#join.kind} already`);
    if (driver.controller.inclusionState !== zwaveJs().InclusionState.Idle)
      throw new HearthError('zwave_busy', 'The Z-Wave controller is busy including or excluding a device');
    this.#join = { sessionId: session.id, kind, pin: null, close: null };
    return this.#join;
  }

  #windowMs(data: Json): number {
    if (data.timeout === undefined) return JOIN_WINDOW_MS;
    const seconds = data.timeout;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > 240)
      throw invalidParameter('data.timeout', 'Expected whole seconds from 1 to 240');
    return seconds * 1000;
  }

  /**
   * `zwave_include` (data: `security` `auto`|`S2`|`S0`|`none`, `timeout` seconds): puts the controller in inclusion
   * mode until a device joins or the time runs out; answers the new device once its node is interviewed.
   */
  async include(session: RadioPairSession, raw: unknown): Promise<unknown> {
    if (session.type !== 'pair') throw invalidParameter('event', 'Inclusion is part of pairing');
    const data = (raw ?? {}) as Json;
    const security = (data.security ?? 'auto') as Security;
    if (!SECURITY.includes(security)) throw invalidParameter('data.security', `Expected one of ${SECURITY.join(', ')}`);
    const windowMs = this.#windowMs(data);
    const join = this.#begin(session, 'inclusion');
    const driver = this.stick!.driver!;
    const { controller } = driver;
    const { InclusionStrategy } = zwaveJs();
    const undo: (() => void)[] = [];
    try {
      const added = new Promise<{ node: ZWaveNode; result: InclusionResult } | 'timeout' | 'closed'>((resolve, reject) => {
        const onAdded = (node: ZWaveNode, result: InclusionResult) => resolve({ node, result });
        join.close = () => resolve('closed');
        const onFound = () => {
          // A device that started joining finishes, even when the pair view went away meanwhile.
          join.close = null;
          session.report('zwave', { stage: 'found' });
        };
        const onFailed = () => reject(refused('including'));
        controller.on('node added', onAdded);
        controller.on('node found', onFound);
        controller.on('inclusion failed', onFailed);
        undo.push(
          () => controller.off('node added', onAdded),
          () => controller.off('node found', onFound),
          () => controller.off('inclusion failed', onFailed),
        );
        // Once a device is found, its security handshake runs on zwave-js's own timers (the PIN has its minutes).
        undo.push(this.context.clock.setTimeout(() => resolve('timeout'), windowMs));
      });
      const userCallbacks = this.#userCallbacks(session, join);
      const strategy = {
        auto: { strategy: InclusionStrategy.Default, userCallbacks },
        S2: { strategy: InclusionStrategy.Security_S2, userCallbacks },
        S0: { strategy: InclusionStrategy.Security_S0 },
        none: { strategy: InclusionStrategy.Insecure },
      }[security] as Parameters<typeof controller.beginInclusion>[0];
      if (!(await controller.beginInclusion(strategy))) throw refused('including');
      session.report('zwave', { stage: 'waiting', security });
      const outcome = await this.#unlessStopped(added);
      if (outcome === 'timeout' || outcome === 'closed') {
        await controller
          .stopInclusion()
          .catch((error: unknown) =>
            this.context.journal.log(`warn Z-Wave: stopping inclusion after ${outcome} failed: ${(error as Error).message}`),
          );
        if (outcome === 'closed') throw closed();
        session.report('zwave', { stage: 'failed', error: 'zwave_timeout' });
        throw new HearthError('zwave_timeout', `No Z-Wave device joined within ${windowMs / 1000} s`);
      }
      const { node, result } = outcome;
      this.#checkSecurity(session, node, result);
      session.report('zwave', { stage: 'interviewing', nodeId: node.id });
      await this.#unlessStopped(this.#interviewed(node));
      const device = await this.#addDevice(session, node);
      session.report('zwave', { stage: 'done', nodeId: node.id });
      return device;
    } catch (error) {
      if (error instanceof HearthError && error.code !== 'zwave_timeout')
        session.report('zwave', { stage: 'failed', error: error.code });
      throw error;
    } finally {
      for (const step of undo) step();
      if (this.#join === join) this.#join = null;
    }
  }

  /** zwave-js's questions during S2 bootstrapping: every requested class is granted; the PIN is the pair view's. */
  #userCallbacks(session: RadioPairSession, join: Join): InclusionUserCallbacks {
    return {
      grantSecurityClasses: async (requested) => requested,
      validateDSKAndEnterPIN: (dsk) =>
        new Promise<string | false>((resolve) => {
          join.pin = (pin) => {
            join.pin = null;
            resolve(pin);
          };
          // The first five digits are the PIN the person reads from the device's label.
          session.report('zwave', { stage: 'pin', dsk: `xxxxx${dsk}` });
        }),
      abort: () => join.pin?.(false),
    };
  }

  /** `zwave_s2_pin` (data: `pin`, five digits): the PIN of the joining S2 device, which its DSK's display asked for. */
  enterPin(session: RadioPairSession, raw: unknown): true {
    const pin = ((raw ?? {}) as Json).pin;
    if (typeof pin !== 'string' || !/^\d{5}$/.test(pin)) throw invalidParameter('data.pin', 'Expected the 5-digit S2 PIN');
    const join = this.#join;
    if (!join || join.sessionId !== session.id || !join.pin)
      throw new HearthError('conflict', 'No Z-Wave device of this pair session is waiting for its S2 PIN');
    join.pin(pin);
    return true;
  }

  /** A node zwave-js included with less security than it asked for is refused, saying why and what became of it. */
  #checkSecurity(session: RadioPairSession, node: ZWaveNode, result: InclusionResult): void {
    if (!result.lowSecurity) return;
    const { SecurityBootstrapFailure } = zwaveJs();
    const reason = result.lowSecurityReason;
    const left = `Node ${node.id} joined the network without security: exclude it, then include it again`;
    this.context.journal.log(
      `Z-Wave: node ${node.id} joined for pair session ${session.id} without security (${SecurityBootstrapFailure[reason ?? SecurityBootstrapFailure.Unknown]})`,
    );
    if (reason === SecurityBootstrapFailure.S2IncorrectPIN)
      throw new HearthError('zwave_s2_pin_wrong', `The S2 PIN does not match the device. ${left} with the PIN on its label`);
    throw new HearthError(
      'zwave_security_failed',
      `Setting up the device's security failed (${SecurityBootstrapFailure[reason ?? SecurityBootstrapFailure.Unknown]}). ${left}`,
    );
  }

  /** Waits for the node's interview; a node that gives up (or takes too long) is a `zwave_interview_failed`. */
  #interviewed(node: ZWaveNode): Promise<void> {
    if (node.ready) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = (error?: HearthError) => {
        node.off('ready', onReady);
        node.off('interview failed', onFailed);
        cancel();
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => done();
      const onFailed = (_node: ZWaveNode, args: { errorMessage: string; isFinal: boolean }) => {
        if (args.isFinal) done(new HearthError('zwave_interview_failed', `Node ${node.id}: ${args.errorMessage}`));
      };
      node.on('ready', onReady);
      node.on('interview failed', onFailed);
      const cancel = this.context.clock.setTimeout(
        () => done(new HearthError('zwave_interview_failed', `Node ${node.id} did not finish its interview in time`)),
        INTERVIEW_MS,
      );
    });
  }

  /** The driver that claims the node: the session's own, another installed app's, or the built-in generic one. */
  claimingDriver(session: RadioPairSession, node: ZWaveNode): ResolvedDriver {
    if (driverClaimsNode(session.driver, node)) return session.driver;
    const { apps } = this.services;
    const claiming = apps.drivers().find((d) => apps.isRunning(d.app.id) && driverClaimsNode(d, node));
    const generic = apps.findDriver(ZWAVE_DRIVER_ID);
    if (claiming) return claiming;
    if (!generic) throw new HearthError('unavailable', 'The built-in generic Z-Wave driver is not installed');
    return generic;
  }

  /**
   * What the claiming driver's `zwave` section sets on a new node: its configuration parameters and wake-up interval.
   * A value the node refuses is journaled, not fatal: the device works, with the node's own default there.
   */
  async #applyManifest(driver: ResolvedDriver, node: ZWaveNode): Promise<void> {
    const zwave = zwaveSection(driver);
    if (!zwave) return;
    const failed = (what: string, error: unknown) =>
      this.context.journal.log(
        `Z-Wave: setting ${what} of node ${node.id} for ${driver.id} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    if (node.supportsCC(CONFIGURATION))
      for (const { id, size, value } of zwave.defaultConfiguration ?? []) {
        const number = Number(value);
        const signedMax = 2 ** (size * 8 - 1) - 1;
        await node.commandClasses.Configuration.set({
          parameter: id,
          value: number,
          valueSize: size,
          valueFormat: number > signedMax ? UNSIGNED : SIGNED,
        }).catch((error: unknown) => failed(`parameter ${id}`, error));
      }
    if (zwave.wakeUpInterval !== undefined && node.supportsCC(WAKE_UP))
      await node.commandClasses['Wake Up']
        .setInterval(zwave.wakeUpInterval, this.stick!.controllerNodeId()!)
        .catch((error: unknown) => failed('the wake-up interval', error));
  }

  async #addDevice(session: RadioPairSession, node: ZWaveNode): Promise<unknown> {
    const driver = this.claimingDriver(session, node);
    await this.#unlessStopped(this.#applyManifest(driver, node));
    const named = `${node.deviceConfig?.description ?? 'Z-Wave device'} (node ${node.id})`;
    if (driver.id === ZWAVE_DRIVER_ID) return session.addDevice(driver, this.nodeDevices.candidate(node, named) as never);
    const homeId = this.stick!.homeId()!;
    const name = typeof driver.driver.name === 'string' ? driver.driver.name : (driver.driver.name.en ?? named);
    return session.addDevice(driver, {
      name,
      data: { id: `${homeId}:${node.id}`, zwave: { homeId, nodeId: node.id } },
      store: {
        manufacturerId: node.manufacturerId ?? null,
        productTypeId: node.productType ?? null,
        productId: node.productId ?? null,
      },
    });
  }

  /**
   * `zwave_exclude` (data: `timeout` seconds): puts the controller in exclusion mode until a device leaves or the
   * time runs out; the devices of the node that left are removed. Answers the node and the removed devices.
   */
  async exclude(session: RadioPairSession, raw: unknown): Promise<Json> {
    const windowMs = this.#windowMs((raw ?? {}) as Json);
    const join = this.#begin(session, 'exclusion');
    const { controller } = this.stick!.driver!;
    const undo: (() => void)[] = [];
    try {
      const removed = new Promise<ZWaveNode | 'timeout' | 'closed'>((resolve, reject) => {
        const onRemoved = (node: ZWaveNode) => resolve(node);
        join.close = () => resolve('closed');
        const onFailed = () => reject(refused('excluding'));
        controller.on('node removed', onRemoved);
        controller.on('exclusion failed', onFailed);
        undo.push(
          () => controller.off('node removed', onRemoved),
          () => controller.off('exclusion failed', onFailed),
        );
        undo.push(this.context.clock.setTimeout(() => resolve('timeout'), windowMs));
      });
      if (!(await controller.beginExclusion())) throw refused('excluding');
      session.report('zwave', { stage: 'waiting' });
      const node = await this.#unlessStopped(removed);
      if (node === 'timeout' || node === 'closed') {
        await controller
          .stopExclusion()
          .catch((error: unknown) =>
            this.context.journal.log(`warn Z-Wave: stopping exclusion after ${node} failed: ${(error as Error).message}`),
          );
        if (node === 'closed') throw closed();
        session.report('zwave', { stage: 'failed', error: 'zwave_timeout' });
        throw new HearthError('zwave_timeout', `No Z-Wave device left within ${windowMs / 1000} s`);
      }
      const removedDeviceIds = deleteNodeDevices(this.services.devices, this.stick!.homeId(), node.id);
      session.report('zwave', { stage: 'done', nodeId: node.id });
      return { nodeId: node.id, removedDeviceIds };
    } finally {
      for (const step of undo) step();
      if (this.#join === join) this.#join = null;
    }
  }
}
