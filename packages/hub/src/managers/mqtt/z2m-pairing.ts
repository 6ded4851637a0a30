import { HearthError, type Zigbee2MqttEvent } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import type { PairingService, RadioPairSession } from '../drivers/pairing';
import { errorText } from './shared';
import type { Zigbee2MqttBridgeTopics } from './z2m-bridge';
import type { JoinListener } from './zigbee2mqtt';

/** zigbee2mqtt grants at most 254 s per request: the window is asked again while a session still waits. */
const WINDOW_S = 254;
/** Asked again this long before the granted window ends. */
const RENEW_BEFORE_MS = 30_000;
/** How often an open window checks that a session still wants it (sessions expire without a word). */
const CHECK_MS = 5_000;

/** Where a device that joined during a session stands. */
interface Joined {
  ieeeAddress: string;
  friendlyName: string | null;
  /** `joined`, `interviewing`, `interviewed` (zigbee2mqtt knows it), `failed` (interview), `added` (a hub device). */
  status: 'joined' | 'interviewing' | 'interviewed' | 'failed' | 'added';
  deviceId: string | null;
}

interface OpenSession {
  readonly session: RadioPairSession;
  readonly joined: Joined[];
}

const INTERVIEW_STATUS: Record<string, Joined['status']> = {
  started: 'interviewing',
  successful: 'interviewed',
  failed: 'failed',
};

/**
 * Pairing Zigbee devices through zigbee2mqtt from the hub's pair session (the bridge's `zigbee2mqtt` driver, event
 * `permit_join`): the network is open for as long as a session waits — asked again before zigbee2mqtt's 254 s run
 * out — and closed when the last such session closes or expires. What joins is listed in the session's `radio`
 * (`joined`: joined, interviewing, interviewed, added); the hub device zigbee2mqtt's device list then makes goes to
 * the session's zone and into its `devices`.
 */
export class Zigbee2MqttPairing implements JoinListener {
  readonly #open = new Map<string, OpenSession>();
  #cancelCheck: (() => void) | null = null;
  /** The request closing the network, while zigbee2mqtt has not answered it: a session opening meanwhile waits. */
  #closing: Promise<void> | null = null;
  /** The request for a window, while zigbee2mqtt has not answered it: sessions and checks meanwhile share it. */
  #opening: Promise<void> | null = null;

  constructor(
    private readonly context: HubContext,
    private readonly pairing: PairingService,
    private readonly bridge: Zigbee2MqttBridgeTopics,
    private readonly driverId: string,
  ) {}

  /** Answers the `permit_join` event of the driver's pair sessions; answers its undo. */
  start(): () => void {
    const undo = this.pairing.useRadioTemplate({
      claims: (driver) => driver.id === this.driverId,
      closed: (sessionId) => this.#close(sessionId),
      events: { permit_join: (session) => this.#permitJoin(session) },
    });
    return () => {
      undo();
      this.#cancelCheck?.();
      this.#cancelCheck = null;
      this.#open.clear();
    };
  }

  async #permitJoin(session: RadioPairSession): Promise<Record<string, unknown>> {
    if (session.type !== 'pair') throw new HearthError('conflict', 'Only a pair session lets devices join');
    const open = this.#open.get(session.id) ?? { session, joined: [] };
    this.#open.set(session.id, open);
    try {
      await this.#keepOpen();
    } catch (error) {
      this.#open.delete(session.id);
      session.report('zigbee2mqtt', { stage: 'failed', error: errorText(error), joined: open.joined });
      throw error;
    }
    // Closed while zigbee2mqtt answered (closing it asked for the network to close again, after this request).
    if (!this.#open.has(session.id))
      throw new HearthError('conflict', 'The pair session closed before zigbee2mqtt opened the network');
    return this.#report(open);
  }

  /** Asks zigbee2mqtt for a (new) window unless the one it granted lasts a while yet; checks the sessions on. */
  async #keepOpen(): Promise<void> {
    this.#cancelCheck ??= this.context.clock.setTimeout(() => this.#check(), CHECK_MS);
    // The window the hub knows of is being closed: it is asked for anew once zigbee2mqtt answered that.
    if (this.#closing) await this.#closing;
    if (this.#opening) return this.#opening;
    const end = this.bridge.permitJoinEnd();
    if (end !== null && end - this.context.clock.now() >= RENEW_BEFORE_MS) return;
    const opening = this.bridge.permitJoin(WINDOW_S).then(() => {
      for (const open of this.#open.values()) this.#report(open);
    });
    this.#opening = opening;
    try {
      await opening;
    } finally {
      if (this.#opening === opening) this.#opening = null;
    }
  }

  #check(): void {
    this.#cancelCheck = null;
    // Sessions that expired (no heartbeat) end here; the pairing service tells of them as it sweeps.
    for (const id of [...this.#open.keys()]) if (!this.pairing.isOpen(id)) this.#close(id);
    if (this.#open.size === 0) return;
    this.#keepOpen().catch((error: unknown) =>
      this.context.journal.log(`mqtt: keeping zigbee2mqtt's network open failed: ${errorText(error)}`),
    );
  }

  #close(sessionId: string): void {
    if (!this.#open.delete(sessionId) || this.#open.size > 0) return;
    this.#cancelCheck?.();
    this.#cancelCheck = null;
    const closing = this.bridge.permitJoin(0).then(
      () => undefined,
      (error: unknown) => this.context.journal.log(`mqtt: closing zigbee2mqtt's network failed: ${errorText(error)}`),
    );
    this.#closing = closing;
    void closing.then(() => {
      if (this.#closing === closing) this.#closing = null;
    });
  }

  #report(open: OpenSession): Record<string, unknown> {
    const end = this.bridge.permitJoinEnd();
    const state = {
      stage: 'open',
      permitJoinEnd: end === null ? null : new Date(end).toISOString(),
      joined: open.joined.map((j) => ({ ...j })),
    };
    open.session.report('zigbee2mqtt', state);
    return state;
  }

  /** The session a joining device counts for: the one opened last, while it waits. */
  #latest(): OpenSession | null {
    return [...this.#open.values()].at(-1) ?? null;
  }

  event(entry: Zigbee2MqttEvent): void {
    const open = this.#latest();
    if (!open || entry.type === 'device_leave' || entry.type === 'device_announce') return;
    let joined = open.joined.find((j) => j.ieeeAddress === entry.ieeeAddress);
    if (!joined) {
      joined = { ieeeAddress: entry.ieeeAddress, friendlyName: null, status: 'joined', deviceId: null };
      open.joined.push(joined);
    }
    joined.friendlyName = entry.friendlyName ?? joined.friendlyName;
    const status = entry.type === 'device_interview' ? INTERVIEW_STATUS[entry.status ?? ''] : undefined;
    if (status && joined.status !== 'added') joined.status = status;
    this.#report(open);
  }

  newDevice(ieeeAddress: string): ReturnType<JoinListener['newDevice']> {
    const open = [...this.#open.values()].find((o) => o.joined.some((j) => j.ieeeAddress === ieeeAddress));
    if (!open) return null;
    return {
      zoneId: open.session.zoneId,
      added: (deviceId) => {
        const joined = open.joined.find((j) => j.ieeeAddress === ieeeAddress);
        if (joined) Object.assign(joined, { status: 'added', deviceId });
        open.session.adopt(deviceId);
        this.#report(open);
      },
    };
  }
}
