import { randomBytes, randomUUID } from 'node:crypto';
import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { translate } from '../../runtime/manifest';
import type { PairViewCommands } from '../apps/process/bridge';
import { deviceSnapshot } from '../apps/process/snapshot';
import type { AppService, ResolvedDriver } from '../apps/service';
import type { DeviceService, NewDevice } from '../devices/service';

export type PairType = 'pair' | 'unpair' | 'repair';

/** What a stand-in Z-Wave device (paired on a hub without a Z-Wave controller) says it is. */
export const ZWAVE_STAND_IN = 'Stand-in: this hub has no Z-Wave controller, so this device and its node id are made up';

interface PairSessionState {
  readonly id: string;
  readonly type: PairType;
  readonly userId: string;
  readonly driver: ResolvedDriver;
  readonly deviceId: string | null;
  zoneId: string | null;
  expiresAt: number;
  readonly callbacks: Map<string, unknown>;
  readonly added: string[];
  /** The view the driver last asked for (`session.showView`), and whether it said `done`. */
  view: string | null;
  done: boolean;
  /** What a radio joining a device for this session says of its progress (`zwave`: the inclusion's stage, an S2 DSK). */
  radio: Record<string, unknown> | null;
}

/** A pair session as a radio manager sees it while it joins a device for it. */
export interface RadioPairSession {
  readonly id: string;
  readonly type: PairType;
  readonly driver: ResolvedDriver;
  /** The device of an unpair or repair session. */
  readonly deviceId: string | null;
  /** Tells the session's clients how the join goes: kept in the session's `radio` and sent as its `event`. */
  report(event: string, state: Record<string, unknown>): void;
  /** Adds the device the radio joined, of `driver` (a radio may find that another driver claims it). */
  addDevice(driver: ResolvedDriver, device: NewDevice): unknown;
  /** The zone the session's new devices go to (`null`: the home's). */
  readonly zoneId: string | null;
  /** Counts a device the radio's bridge made itself (zigbee2mqtt lists it) as one this session added. */
  adopt(deviceId: string): void;
}

/** The pairing events a radio manager answers for the drivers it claims (`zwave_include` for Z-Wave drivers). */
export interface RadioTemplate {
  claims(driver: ResolvedDriver): boolean;
  /** The session closed or expired: a join it waits on ends (optional). */
  closed?(sessionId: string): void;
  events: Record<string, (session: RadioPairSession, data: unknown) => Promise<unknown>>;
}

/** A found device the pairing views can offer ("list_devices"). */
interface Candidate {
  name: string;
  data: Record<string, unknown>;
  store?: Record<string, unknown>;
}

/**
 * Pair sessions: a pairing (or unpairing, repairing) conversation between a client's pairing views and a
 * driver. Sessions live in memory and expire when the client stops sending heartbeats.
 */
export class PairingService implements PairViewCommands {
  /** How long a session lives after its last heartbeat. */
  ttlMs = 60_000;
  private readonly sessions = new Map<string, PairSessionState>();
  /** Pairing events a radio manager answers for a built-in driver (`<full driver id>:<event>`), while it runs. */
  private readonly radioEvents = new Map<string, (data: unknown, name: string) => Promise<unknown>>();
  private readonly radioTemplates = new Set<RadioTemplate>();

  constructor(
    private readonly context: HubContext,
    private readonly apps: AppService,
    private readonly devices: DeviceService,
  ) {}

  create(userId: string, input: { type: PairType; driverId: string; deviceId?: string | null; zoneId?: string | null }) {
    this.sweep();
    const driver = this.apps.findDriver(input.driverId);
    if (!driver) throw invalidParameter('pairsession.driverId', `No driver with id ${input.driverId}`);
    if (!this.apps.isRunning(driver.app.id))
      throw new HearthError('unavailable', `${translate(driver.app.manifest.name, 'en')} is not running`);
    let deviceId: string | null = null;
    if (input.type !== 'pair') {
      if (!input.deviceId) throw new HearthError('missing_parameter', 'Missing Parameter: pairsession.deviceId');
      const device = this.devices.find(input.deviceId);
      if (!device || device.driverId !== driver.id)
        throw invalidParameter('pairsession.deviceId', `No device ${input.deviceId} of this driver`);
      deviceId = device.id;
    }
    const session: PairSessionState = {
      id: randomUUID(),
      type: input.type,
      userId,
      driver,
      deviceId,
      zoneId: input.zoneId ?? null,
      expiresAt: this.context.clock.now() + this.ttlMs,
      callbacks: new Map(),
      added: [],
      view: null,
      done: false,
      radio: null,
    };
    this.sessions.set(session.id, session);
    const host = this.apps.processHost(driver.app.id);
    if (!host) return this.view(session);
    // An app's driver runs its onPair (onRepair, onUnpair) before the views start.
    return host
      .call(driver.app.id, 'pair.open', { sessionId: session.id, driverId: driver.driver.id, type: session.type, deviceId })
      .then(
        () => this.view(session),
        (error: unknown) => {
          this.sessions.delete(session.id);
          throw error;
        },
      );
  }

  /** The caller's open sessions. */
  list(userId: string) {
    this.sweep();
    return [...this.sessions.values()].filter((s) => s.userId === userId).map((s) => this.view(s));
  }

  /** Changes what a client may change of its session: the zone new devices go to. */
  update(userId: string, id: string, patch: { zoneId?: string | null }) {
    const session = this.require(userId, id);
    if (patch.zoneId !== undefined) session.zoneId = patch.zoneId;
    session.expiresAt = this.context.clock.now() + this.ttlMs;
    return this.view(session);
  }

  /** A command of an app's driver for the session's views: recorded in the session and sent to its clients. */
  command(appId: string, sessionId: string, command: { kind: string; viewId?: string; event?: string; data?: unknown }): void {
    const session = this.sessions.get(sessionId);
    if (!session || session.driver.app.id !== appId) throw notFound('PairSession', sessionId);
    const views = (session.driver.driver[session.type] ?? []).map((v) => v.id);
    if (command.kind === 'showView') {
      if (!command.viewId || !views.includes(command.viewId))
        throw invalidParameter('viewId', `The driver has no view ${command.viewId}`);
      session.view = command.viewId;
    } else if (command.kind === 'nextView' || command.kind === 'prevView') {
      const at = session.view ? views.indexOf(session.view) : 0;
      session.view = views[Math.min(Math.max(at + (command.kind === 'nextView' ? 1 : -1), 0), views.length - 1)] ?? null;
    } else if (command.kind === 'done') session.done = true;
    this.context.events.item(
      'drivers',
      'pairsession',
      session.id,
      command.kind === 'emit' ? String(command.event) : command.kind,
      command.kind === 'emit' ? (command.data ?? null) : { view: session.view, done: session.done },
      'homey.device',
    );
  }

  get(userId: string, id: string) {
    return this.view(this.require(userId, id));
  }

  heartbeat(userId: string, id: string) {
    const session = this.require(userId, id);
    session.expiresAt = this.context.clock.now() + this.ttlMs;
    return this.view(session);
  }

  delete(userId: string, id: string): void {
    const session = this.require(userId, id);
    this.sessions.delete(id);
    for (const template of this.radioTemplates) template.closed?.(id);
    const appId = session.driver.app.id;
    void this.apps
      .processHost(appId)
      ?.call(appId, 'pair.close', { sessionId: id })
      .catch((error) =>
        this.context.journal.log(`warn pair session ${id}: ${appId} did not close it: ${(error as Error).message}`),
      );
  }

  /**
   * Lets a radio manager answer one pairing event of a built-in driver (the Matter controller commissions on
   * `matter_code`); the handler gets the event's data and the name the new device gets. Answers the function that
   * takes the handler away again.
   */
  useRadioEvent(driverId: string, event: string, handler: (data: unknown, name: string) => Promise<unknown>): () => void {
    const key = `${driverId}:${event}`;
    this.radioEvents.set(key, handler);
    return () => {
      if (this.radioEvents.get(key) === handler) this.radioEvents.delete(key);
    };
  }

  /**
   * Lets a radio manager answer pairing events for every driver it claims, the apps' drivers among them (the
   * hub's Z-Wave controller includes nodes for any driver with a `zwave` manifest section). Answers the function
   * that takes the template away again.
   */
  useRadioTemplate(template: RadioTemplate): () => void {
    this.radioTemplates.add(template);
    return () => this.radioTemplates.delete(template);
  }

  /** A pairing view's event, answered by the app's driver (or as the simulated driver would). */
  emit(userId: string, id: string, event: string, data: unknown): unknown {
    const session = this.require(userId, id);
    const { driver } = session;
    const radio = this.radioEvents.get(`${driver.id}:${event}`);
    if (radio) return radio(data ?? null, this.candidate(driver, {}).name);
    for (const template of this.radioTemplates) {
      const handler = Object.hasOwn(template.events, event) ? template.events[event] : undefined;
      if (handler && template.claims(driver)) return handler(this.radioSession(session), data ?? null);
    }
    const host = this.apps.processHost(driver.app.id);
    if (host) return host.call(driver.app.id, 'pair.message', { sessionId: id, event, data: data ?? null });
    const record = (data ?? {}) as Record<string, unknown>;
    switch (event) {
      case 'showView':
        return null;
      case 'list_devices':
        return session.type === 'pair' ? [this.candidate(driver, {})] : [];
      case 'login':
      case 'login_credentials': {
        if (typeof record.username !== 'string' || !record.username) throw invalidParameter('data.username', 'Required');
        if (typeof record.password !== 'string' || !record.password) throw invalidParameter('data.password', 'Required');
        return true;
      }
      case 'zwave_include':
      case 'start_inclusion': {
        // Only a hub without a Z-Wave controller gets here (the zwave manager claims the event otherwise): the node
        // is made up, and the device says so.
        const nodeId = this.nextNodeId();
        return this.candidate(
          driver,
          { nodeId, standIn: true },
          { manufacturerId: 271, productTypeId: 1538, productId: 4096, standIn: ZWAVE_STAND_IN },
        );
      }
      case 'zwave_exclude':
        if (session.type !== 'unpair') throw invalidParameter('event', 'Exclusion is part of unpairing');
        return true;
      case 'zigbee_join':
        return this.candidate(driver, {
          ieeeAddress: randomBytes(8)
            .toString('hex')
            .replace(/(..)(?!$)/g, '$1:'),
        });
      case 'ir_learn':
      case 'rf_learn': {
        const signal = Array.isArray(record.signal) ? record.signal : [350, 1050, 350, 1050, 1050, 350];
        return this.candidate(driver, { signal: signal.slice(0, 512) });
      }
      case 'matter_code': {
        const code = String(record.code ?? '').replace(/[-\s]/g, '');
        if (!/^(\d{11}|\d{21}|MT:[0-9A-Z.-]{19,})$/.test(code))
          throw invalidParameter('data.code', 'Expected an 11 or 21 digit pairing code or an MT: QR payload');
        return this.candidate(driver, { nodeId: randomBytes(8).readBigUInt64BE().toString() });
      }
      default:
        throw invalidParameter('event', `The driver does not handle the event ${event}`);
    }
  }

  /** Records the view's answer to a question the driver asked. */
  callback(userId: string, id: string, callbackId: string, data: unknown): void {
    const session = this.require(userId, id);
    session.callbacks.set(callbackId, data ?? null);
  }

  /** Adds the found device (pair sessions only). */
  addDevice(userId: string, id: string, device: NewDevice) {
    const session = this.require(userId, id);
    if (session.type !== 'pair') throw new HearthError('conflict', `A ${session.type} session cannot add devices`);
    return this.add(session, session.driver, device);
  }

  private add(session: PairSessionState, driver: ResolvedDriver, device: NewDevice) {
    const dataId = device.data.id;
    if (dataId === undefined) throw new HearthError('missing_parameter', 'Missing Parameter: device.data.id');
    const duplicate = this.devices
      .listByApp(driver.app.id)
      .find((d) => d.driverId === driver.id && JSON.stringify(d.data.id) === JSON.stringify(dataId));
    if (duplicate) throw new HearthError('conflict', `This device is already paired as ${duplicate.name}`);
    const created = this.devices.create(driver, { ...device, zone: device.zone ?? session.zoneId ?? undefined });
    session.added.push(created.id);
    session.expiresAt = this.context.clock.now() + this.ttlMs;
    const appId = driver.app.id;
    const host = this.apps.processHost(appId);
    if (!host) return this.devices.view(created);
    // The app constructs the device and runs its onInit and onAdded before the answer.
    return host
      .call(appId, 'device.added', { device: deviceSnapshot(this.devices, this.devices.require(created.id)) })
      .then(() => this.devices.view(this.devices.require(created.id)));
  }

  /** Removes the device of an unpair session. */
  removeDevice(userId: string, id: string): void {
    const session = this.require(userId, id);
    if (session.type !== 'unpair' || !session.deviceId)
      throw new HearthError('conflict', 'Only an unpair session removes its device');
    if (this.devices.find(session.deviceId)) this.devices.delete(session.deviceId);
  }

  private radioSession(session: PairSessionState): RadioPairSession {
    return {
      id: session.id,
      type: session.type,
      driver: session.driver,
      deviceId: session.deviceId,
      report: (event, state) => {
        session.radio = state;
        // A join the person is waiting on keeps the session alive.
        session.expiresAt = Math.max(session.expiresAt, this.context.clock.now() + this.ttlMs);
        this.context.events.item('drivers', 'pairsession', session.id, event, state, 'homey.device');
      },
      addDevice: (driver, device) => this.add(session, driver, device),
      get zoneId() {
        return session.zoneId;
      },
      adopt: (deviceId) => {
        if (!session.added.includes(deviceId)) session.added.push(deviceId);
      },
    };
  }

  private candidate(driver: ResolvedDriver, data: Record<string, unknown>, store: Record<string, unknown> = {}): Candidate {
    const count = this.devices.listByApp(driver.app.id).filter((d) => d.driverId === driver.id).length;
    const name = translate(driver.driver.name, this.context.config.language);
    return { name: count === 0 ? name : `${name} ${count + 1}`, data: { id: randomUUID(), ...data }, store };
  }

  private nextNodeId(): number {
    const next = this.context.settings.get<number>('zwave.nextNodeId', 2);
    this.context.settings.set('zwave.nextNodeId', next + 1);
    return next;
  }

  /** Whether the session `id` is still open (not closed, not expired). */
  isOpen(id: string): boolean {
    this.sweep();
    return this.sessions.has(id);
  }

  /** Whether `userId` opened the live session `id`: only they receive its events. */
  owns(userId: string, id: string): boolean {
    this.sweep();
    return this.sessions.get(id)?.userId === userId;
  }

  private require(userId: string, id: string): PairSessionState {
    this.sweep();
    const session = this.sessions.get(id);
    // Another user's session is as absent as an expired one.
    if (!session || session.userId !== userId) throw notFound('PairSession', id);
    return session;
  }

  private sweep(): void {
    const now = this.context.clock.now();
    for (const [id, session] of this.sessions) {
      if (session.expiresAt > now) continue;
      this.sessions.delete(id);
      // A radio keeping the network open for the session closes it, as when the session is deleted.
      for (const template of this.radioTemplates) template.closed?.(id);
    }
  }

  private view(session: PairSessionState) {
    const views = session.driver.driver[session.type] ?? [];
    return {
      id: session.id,
      type: session.type,
      driverId: session.driver.id,
      driverUri: `homey:app:${session.driver.app.id}`,
      deviceId: session.deviceId,
      zoneId: session.zoneId,
      views: views.map((v) => ({ ...v })),
      expiresAt: new Date(session.expiresAt).toISOString(),
      devices: [...session.added],
      view: session.view,
      done: session.done,
      radio: session.radio,
    };
  }
}
