import { HearthError, type Zigbee2MqttBridge, type Zigbee2MqttEvent } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { isObject } from './ha-config';
import { errorText, MAX_STATE_BYTES, readJson } from './shared';
import type { BrokerLink } from './zigbee2mqtt';

/** How long zigbee2mqtt has to answer a request on `bridge/response/…`, on the hub's clock. */
export const REQUEST_TIMEOUT_MS = 10_000;
const KEPT_EVENTS = 20;
const EVENT_TYPES: readonly Zigbee2MqttEvent['type'][] = ['device_joined', 'device_announce', 'device_interview', 'device_leave'];

const EMPTY_INFO: Omit<Zigbee2MqttBridge, 'events'> = {
  online: null,
  version: null,
  coordinator: null,
  channel: null,
  permitJoin: false,
  permitJoinEnd: null,
};

/**
 * An availability payload: `{"state":"online"}` (zigbee2mqtt 2.x, and 1.x with JSON availability) or the legacy
 * plain `online`/`offline`; `null` when it is neither.
 */
export function onlineState(payload: Buffer): 'online' | 'offline' | null {
  const raw = payload.toString('utf8').trim();
  let state: unknown = raw;
  if (raw.startsWith('{')) {
    try {
      state = (JSON.parse(raw) as { state?: unknown }).state;
    } catch {
      state = undefined;
    }
  }
  return state === 'online' || state === 'offline' ? state : null;
}

interface Request {
  readonly resolve: (data: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly cancelTimer: () => void;
}

/**
 * zigbee2mqtt's own topics (its documentation, "MQTT topics and messages", bridge section): `bridge/info` (retained:
 * version, coordinator, whether devices may join), `bridge/event` (a device joined, was interviewed, left), and
 * requests on `bridge/request/<name>` answered on `bridge/response/<name>` with the request's `transaction`.
 */
export class Zigbee2MqttBridgeTopics {
  #info: Omit<Zigbee2MqttBridge, 'events'> | null = null;
  #events: Zigbee2MqttEvent[] = [];
  #requests = new Map<string, Request>();
  #nextTransaction = 1;

  constructor(
    private readonly context: HubContext,
    private readonly broker: BrokerLink,
    private readonly on: {
      /** A device left the network (`device_leave`): the bridge marks it removed at once. */
      left(ieeeAddress: string): void;
      /** zigbee2mqtt went away (its last will) or came back: its devices are unreachable meanwhile. */
      online(online: boolean): void;
      /** Any device event (a pair session lists what joins). */
      event(entry: Zigbee2MqttEvent): void;
    },
  ) {}

  /** What zigbee2mqtt said, or `null` when it has said nothing yet. */
  state(): Zigbee2MqttBridge | null {
    if (!this.#info && this.#events.length === 0) return null;
    return this.#snapshot(this.#info ?? EMPTY_INFO);
  }

  #snapshot(info: Omit<Zigbee2MqttBridge, 'events'>): Zigbee2MqttBridge {
    // A join window zigbee2mqtt gave an end to is closed once the clock has passed it.
    const ended = info.permitJoinEnd !== null && Date.parse(info.permitJoinEnd) <= this.context.clock.now();
    return { ...info, ...(ended ? { permitJoin: false, permitJoinEnd: null } : {}), events: [...this.#events] };
  }

  /** Handles `bridge/<rest>`; answers whether the topic was one of the bridge's. */
  message(topic: string, rest: string, payload: Buffer): boolean {
    if (rest === 'bridge/state') this.#stateMessage(topic, payload);
    else if (rest === 'bridge/info')
      readJson(this.context, topic, payload, MAX_STATE_BYTES, (info) => this.#infoMessage(topic, info));
    else if (rest === 'bridge/event')
      readJson(this.context, topic, payload, MAX_STATE_BYTES, (event) => this.#eventMessage(topic, event));
    else if (rest.startsWith('bridge/response/'))
      readJson(this.context, topic, payload, MAX_STATE_BYTES, (response) => this.#response(response));
    else return false;
    return true;
  }

  /** When the join window zigbee2mqtt granted ends (ms on the hub's clock), or `null` while the network is closed. */
  permitJoinEnd(): number | null {
    const end = this.#info?.permitJoin ? this.#info.permitJoinEnd : null;
    return end === null || end === undefined ? null : Date.parse(end);
  }

  /** Opens the network for `time` seconds (0 closes it), once zigbee2mqtt confirms. */
  async permitJoin(time: number): Promise<Zigbee2MqttBridge> {
    const data = await this.#request('permit_join', { time, value: time > 0 });
    const granted = isObject(data) && typeof data.time === 'number' ? data.time : time;
    const end = granted > 0 ? new Date(this.context.clock.now() + granted * 1000).toISOString() : null;
    this.#info = { ...(this.#info ?? EMPTY_INFO), permitJoin: granted > 0, permitJoinEnd: end };
    this.context.journal.log(
      granted > 0 ? `mqtt: zigbee2mqtt lets devices join for ${granted} s` : 'mqtt: zigbee2mqtt closed the network',
    );
    return this.#snapshot(this.#info);
  }

  /** Fails the requests still waiting (the broker went away, or the bridge stopped). */
  failAll(reason: string): void {
    for (const request of this.#requests.values()) {
      request.cancelTimer();
      request.reject(new HearthError('unavailable', reason));
    }
    this.#requests.clear();
  }

  /**
   * Sends `bridge/request/<name>` with a transaction id and waits for its response. zigbee2mqtt 2.x reads `time`;
   * 1.x reads `value` (and `time`), so both are sent.
   */
  #request(name: string, body: Record<string, unknown>): Promise<unknown> {
    const client = this.broker.client;
    if (!client) return Promise.reject(new HearthError('unavailable', 'The MQTT broker is not connected'));
    const transaction = `hearth-${this.#nextTransaction++}`;
    const answered = new Promise<unknown>((resolve, reject) => {
      this.#requests.set(transaction, {
        resolve,
        reject,
        cancelTimer: this.context.clock.setTimeout(() => {
          this.#requests.delete(transaction);
          reject(new HearthError('timeout', `zigbee2mqtt did not answer ${name} within ${REQUEST_TIMEOUT_MS / 1000} s`));
        }, REQUEST_TIMEOUT_MS),
      });
    });
    const topic = `${this.broker.baseTopic()}/bridge/request/${name}`;
    client.publishAsync(topic, JSON.stringify({ ...body, transaction }), { qos: 1 }).catch((error: unknown) => {
      const request = this.#requests.get(transaction);
      this.#requests.delete(transaction);
      request?.cancelTimer();
      request?.reject(new HearthError('unavailable', `Publishing to ${topic} failed: ${errorText(error)}`));
    });
    return answered;
  }

  #response(response: unknown): void {
    // Responses to requests of others (zigbee2mqtt's frontend) carry their transaction, or none.
    if (!isObject(response) || typeof response.transaction !== 'string') return;
    const request = this.#requests.get(response.transaction);
    if (!request) return;
    this.#requests.delete(response.transaction);
    request.cancelTimer();
    if (response.status === 'ok') request.resolve(response.data);
    else request.reject(new HearthError('app_error', `zigbee2mqtt refused: ${String(response.error ?? 'no reason given')}`));
  }

  #infoMessage(topic: string, info: unknown): void {
    if (!isObject(info)) {
      this.context.journal.log(`mqtt: ignored ${topic}: not a JSON object`);
      return;
    }
    const coordinator = isObject(info.coordinator) ? info.coordinator : {};
    const network = isObject(info.network) ? info.network : {};
    const permitJoin = info.permit_join === true;
    // 2.x says when the window ends (`permit_join_end`, ms); 1.x how many seconds are left (`permit_join_timeout`).
    const endMs =
      typeof info.permit_join_end === 'number'
        ? info.permit_join_end
        : typeof info.permit_join_timeout === 'number'
          ? this.context.clock.now() + info.permit_join_timeout * 1000
          : null;
    this.#info = {
      online: this.#info?.online ?? null,
      version: typeof info.version === 'string' ? info.version : null,
      coordinator: typeof coordinator.type === 'string' ? coordinator.type : null,
      channel: Number.isInteger(network.channel) ? (network.channel as number) : null,
      permitJoin,
      permitJoinEnd: permitJoin && endMs !== null ? new Date(endMs).toISOString() : null,
    };
  }

  #eventMessage(topic: string, event: unknown): void {
    const data = isObject(event) && isObject(event.data) ? event.data : null;
    const type = isObject(event) ? event.type : undefined;
    if (!data || !EVENT_TYPES.includes(type as Zigbee2MqttEvent['type']) || typeof data.ieee_address !== 'string') {
      this.context.journal.log(`mqtt: ignored ${topic}: not a device event`);
      return;
    }
    const entry: Zigbee2MqttEvent = {
      type: type as Zigbee2MqttEvent['type'],
      ieeeAddress: data.ieee_address,
      friendlyName: typeof data.friendly_name === 'string' ? data.friendly_name : null,
      status: typeof data.status === 'string' ? data.status : null,
      at: new Date(this.context.clock.now()).toISOString(),
    };
    this.#events = [entry, ...this.#events].slice(0, KEPT_EVENTS);
    const name = entry.friendlyName ?? entry.ieeeAddress;
    const said = {
      device_joined: 'joined',
      device_announce: 'announced itself',
      device_interview: `interview ${entry.status ?? ''}`.trim(),
      device_leave: 'left the network',
    }[entry.type];
    this.context.journal.log(`mqtt: zigbee2mqtt: ${name} ${said}`);
    if (entry.type === 'device_leave') this.on.left(entry.ieeeAddress);
    this.on.event(entry);
  }

  #stateMessage(topic: string, payload: Buffer): void {
    const state = onlineState(payload);
    if (state === null) {
      // An empty payload deletes the retained state (zigbee2mqtt removed): nothing to say about it.
      if (payload.length > 0) this.context.journal.log(`mqtt: ignored ${topic}: neither online nor offline`);
      return;
    }
    const online = state === 'online';
    if (this.#info?.online === online) return;
    this.#info = { ...(this.#info ?? EMPTY_INFO), online };
    this.context.journal.log(`mqtt: zigbee2mqtt is ${state}`);
    this.on.online(online);
  }
}
