import mqtt, { type MqttClient } from 'mqtt';

type Json = Record<string, unknown>;

/** A Zigbee device as zigbee2mqtt lists it on `bridge/devices` (the parts the stand-in reads). */
export interface StandInDevice {
  ieee_address: string;
  friendly_name: string;
  type: string;
  definition: Json | null;
  [key: string]: unknown;
}

/**
 * A STAND-IN FOR zigbee2mqtt, for tests and the demo: no Zigbee radio can run here, so this client plays the part
 * zigbee2mqtt plays on the broker, in the shapes of its documentation ("MQTT topics and messages"). It publishes
 * `bridge/state`, `bridge/info` and `bridge/devices` (retained), each device's state and availability; answers
 * `bridge/request/permit_join` on `bridge/response/permit_join` and keeps `bridge/info`'s window; applies
 * `<friendly_name>/set` and publishes the new state, as zigbee2mqtt does once the device confirms; and lets a device
 * join (`join`) while the network is open: `bridge/event` device_joined, device_interview started and successful,
 * then the new `bridge/devices`.
 */
export class Zigbee2MqttStandIn {
  /** Every request zigbee2mqtt got on `bridge/request/…`, in order. */
  readonly requests: { name: string; body: Json }[] = [];
  readonly #states = new Map<string, Json>();
  #permitJoinEnd: number | null = null;
  #closeTimer: NodeJS.Timeout | null = null;
  /** Answers requests with this refusal instead (a test of zigbee2mqtt saying no), while set. */
  refuse: string | null = null;

  private constructor(
    private readonly client: MqttClient,
    private readonly base: string,
    private readonly devices: StandInDevice[],
    private readonly now: () => number,
  ) {}

  static async start(options: {
    url: string;
    baseTopic?: string;
    devices: readonly StandInDevice[];
    /** Each device's first state (by friendly name). */
    states?: Record<string, Json>;
    /** zigbee2mqtt's clock, for the join window's end (a test shares its hub's fake clock); the system's otherwise. */
    now?: () => number;
  }): Promise<Zigbee2MqttStandIn> {
    const base = options.baseTopic ?? 'zigbee2mqtt';
    const client = await mqtt.connectAsync(options.url, {
      clientId: `zigbee2mqtt-stand-in-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
      will: { topic: `${base}/bridge/state`, payload: Buffer.from('{"state":"offline"}'), retain: true, qos: 1 },
    });
    const standIn = new Zigbee2MqttStandIn(client, base, structuredClone([...options.devices]), options.now ?? Date.now);
    for (const [name, state] of Object.entries(options.states ?? {})) standIn.#states.set(name, { ...state });
    client.on('message', (topic, payload) => standIn.#message(topic, payload));
    await client.subscribeAsync([`${base}/bridge/request/+`, `${base}/+/set`, `${base}/+/+/set`], { qos: 1 });
    await standIn.#publish('bridge/state', { state: 'online' }, true);
    await standIn.#publishInfo();
    await standIn.#publish('bridge/devices', standIn.devices, true);
    for (const device of standIn.devices) {
      if (device.type === 'Coordinator') continue;
      await standIn.#publish(`${device.friendly_name}/availability`, { state: 'online' }, true);
      const state = standIn.#states.get(device.friendly_name);
      if (state) await standIn.#publish(device.friendly_name, state, true);
    }
    return standIn;
  }

  /** Whether the network lets devices join now. */
  get permitJoin(): boolean {
    return this.#permitJoinEnd !== null && this.#permitJoinEnd > this.now();
  }

  /**
   * A device joins and is interviewed, as zigbee2mqtt tells of it; refused while the network is closed (a real
   * device finds no network to join then).
   */
  async join(device: StandInDevice, state?: Json): Promise<void> {
    if (!this.permitJoin) throw new Error(`The network is closed: ${device.friendly_name} cannot join`);
    const data = { friendly_name: device.friendly_name, ieee_address: device.ieee_address };
    await this.#publish('bridge/event', { type: 'device_joined', data });
    await this.#publish('bridge/event', { type: 'device_interview', data: { ...data, status: 'started' } });
    const { model, vendor, description, exposes } = (device.definition ?? {}) as Json;
    await this.#publish('bridge/event', {
      type: 'device_interview',
      data: { ...data, status: 'successful', supported: true, definition: { model, vendor, description, exposes, options: [] } },
    });
    this.devices.push(structuredClone(device));
    await this.#publish('bridge/devices', this.devices, true);
    await this.#publish(`${device.friendly_name}/availability`, { state: 'online' }, true);
    if (state) {
      this.#states.set(device.friendly_name, { ...state });
      await this.#publish(device.friendly_name, state, true);
    }
  }

  /** Deletes what it kept on the broker (its retained messages), and leaves. */
  async stop(clearRetained = true): Promise<void> {
    if (this.#closeTimer) clearTimeout(this.#closeTimer);
    if (clearRetained) {
      const topics = ['bridge/state', 'bridge/info', 'bridge/devices'];
      for (const device of this.devices)
        if (device.type !== 'Coordinator') topics.push(device.friendly_name, `${device.friendly_name}/availability`);
      for (const topic of topics) await this.client.publishAsync(`${this.base}/${topic}`, '', { qos: 1, retain: true });
    }
    await this.client.endAsync();
  }

  #publish(topic: string, payload: unknown, retain = false) {
    return this.client.publishAsync(`${this.base}/${topic}`, JSON.stringify(payload), { qos: 1, retain });
  }

  #publishInfo() {
    return this.#publish(
      'bridge/info',
      {
        version: '2.1.1',
        coordinator: { ieee_address: '0x00124b0024c2a4f1', type: 'zStack3x0', meta: { revision: 20230507 } },
        network: { channel: 15, pan_id: 6754 },
        log_level: 'info',
        permit_join: this.permitJoin,
        permit_join_end: this.permitJoin ? this.#permitJoinEnd : undefined,
        restart_required: false,
      },
      true,
    );
  }

  #message(topic: string, payload: Buffer): void {
    const rest = topic.slice(this.base.length + 1);
    let body: Json;
    try {
      body = JSON.parse(payload.toString('utf8')) as Json;
    } catch {
      return; // zigbee2mqtt logs and drops what is not JSON; the stand-in only drops it
    }
    if (rest.startsWith('bridge/request/')) void this.#request(rest.slice('bridge/request/'.length), body);
    else if (rest.endsWith('/set')) void this.#set(rest.slice(0, -'/set'.length), body);
  }

  async #request(name: string, body: Json): Promise<void> {
    this.requests.push({ name, body });
    const transaction = body.transaction;
    if (this.refuse !== null || name !== 'permit_join') {
      const error = this.refuse ?? `Unknown request ${name} (the stand-in answers permit_join only)`;
      await this.#publish(`bridge/response/${name}`, { data: {}, status: 'error', error, transaction });
      return;
    }
    // zigbee2mqtt 2.x reads `time` (seconds, at most 254; 0 closes); 1.x read `value` as well.
    const time = typeof body.time === 'number' ? Math.min(Math.max(body.time, 0), 254) : body.value === true ? 254 : 0;
    if (this.#closeTimer) clearTimeout(this.#closeTimer);
    this.#closeTimer = null;
    this.#permitJoinEnd = time > 0 ? this.now() + time * 1000 : null;
    // Said again once the window is over (on the system's timers: a stand-in on a test's clock never gets there).
    if (time > 0)
      this.#closeTimer = setTimeout(() => {
        this.#permitJoinEnd = null;
        void this.#publishInfo();
      }, time * 1000);
    await this.#publish('bridge/response/permit_join', { data: { time }, status: 'ok', transaction });
    await this.#publishInfo();
  }

  async #set(name: string, command: Json): Promise<void> {
    if (!this.devices.some((d) => d.friendly_name === name)) return;
    const state = { ...(this.#states.get(name) ?? {}) };
    for (const [key, value] of Object.entries(command)) {
      if (key === 'state' && value === 'TOGGLE') state.state = state.state === 'ON' ? 'OFF' : 'ON';
      else state[key] = value;
    }
    this.#states.set(name, state);
    await this.#publish(name, state, true);
  }
}
