import type { MqttBridgeState, MqttBrokerSettings, Zigbee2MqttBridge } from '@hearth/contract';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { HubContext } from '../../platform/context';

/** The broker setting as the hub stores it (`PUT /manager/mqtt/broker`). */
export const BROKER_SETTING = 'mqtt.broker';
export const DEFAULT_BASE_TOPIC = 'zigbee2mqtt';
export const DEFAULT_DISCOVERY_PREFIX = 'homeassistant';
export const DEFAULT_HOMIE_PREFIX = 'homie';

/** Back-off between attempts: doubling from the first to the last, then staying there. */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;
const CONNECT_TIMEOUT_MS = 10_000;

/** What the connection tells the part that reads the broker's topics. */
export interface MqttListener {
  /** Connected (again): subscribe. Retained messages arrive after this. */
  connected(client: MqttClient): void;
  message(topic: string, payload: Buffer, retained: boolean): void;
  /** The connection was lost or could not be made (not called when the bridge stops or is reconfigured). */
  disconnected(): void;
}

/** The broker to use: the stored setting over the environment's (`HUB_MQTT_URL`), or none. */
export function configuredBroker(
  context: HubContext,
): { settings: MqttBrokerSettings; source: 'setting' | 'environment' } | null {
  const stored = context.settings.get<MqttBrokerSettings | null>(BROKER_SETTING, null);
  if (stored) return { settings: stored, source: 'setting' };
  return context.config.mqtt ? { settings: context.config.mqtt, source: 'environment' } : null;
}

/** A URL as it may be shown: without the user and password it may carry. */
function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

/**
 * The bridge's one connection to its broker. It reconnects itself, on the hub's clock, with a doubling back-off,
 * and keeps why it is not connected for the settings page. `start` connects to the configured broker; `reconfigure`
 * drops the connection and uses the broker configured now.
 */
export class MqttConnection {
  #client: MqttClient | null = null;
  #state: MqttBridgeState['state'] = 'disabled';
  #lastError: string | null = null;
  #connectedAt: number | null = null;
  #nextAttemptAt: number | null = null;
  #failures = 0;
  #cancelRetry: (() => void) | null = null;
  #stopped = true;

  constructor(
    private readonly context: HubContext,
    private readonly listener: MqttListener,
  ) {}

  get client(): MqttClient | null {
    return this.#state === 'connected' ? this.#client : null;
  }

  baseTopic(): string {
    return configuredBroker(this.context)?.settings.baseTopic ?? DEFAULT_BASE_TOPIC;
  }

  discoveryPrefix(): string {
    return configuredBroker(this.context)?.settings.discoveryPrefix ?? DEFAULT_DISCOVERY_PREFIX;
  }

  homiePrefix(): string {
    return configuredBroker(this.context)?.settings.homiePrefix ?? DEFAULT_HOMIE_PREFIX;
  }

  start(): void {
    this.#stopped = false;
    this.#open();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#close();
    this.#state = 'disabled';
  }

  /** Uses the broker configured now (after the setting changed). */
  async reconfigure(): Promise<void> {
    await this.#close();
    this.#failures = 0;
    this.#lastError = null;
    if (!this.#stopped) this.#open();
  }

  state(devices: number, zigbee2mqtt: Zigbee2MqttBridge | null): MqttBridgeState {
    const broker = configuredBroker(this.context);
    const at = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      state: broker ? this.#state : 'disabled',
      url: broker ? publicUrl(broker.settings.url) : null,
      source: broker?.source ?? null,
      clientId: broker ? this.#clientId(broker.settings) : null,
      username: broker?.settings.username ?? null,
      customCa: broker?.settings.ca !== undefined,
      baseTopic: broker?.settings.baseTopic ?? DEFAULT_BASE_TOPIC,
      lastError: this.#lastError,
      connectedAt: this.#state === 'connected' ? at(this.#connectedAt) : null,
      nextAttemptAt: this.#state === 'disconnected' ? at(this.#nextAttemptAt) : null,
      devices,
      zigbee2mqtt,
    };
  }

  #clientId(settings: MqttBrokerSettings): string {
    return settings.clientId ?? `hearth-${this.context.config.id}`;
  }

  #open(): void {
    const broker = configuredBroker(this.context);
    if (!broker) {
      this.#state = 'disabled';
      return;
    }
    const { settings } = broker;
    const options: IClientOptions = {
      clientId: this.#clientId(settings),
      // The hub's clock drives reconnection (below), so the client never retries on its own.
      reconnectPeriod: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      clean: true,
      ...(settings.username !== undefined ? { username: settings.username } : {}),
      ...(settings.password !== undefined ? { password: settings.password } : {}),
      ...(settings.ca !== undefined ? { ca: settings.ca } : {}),
    };
    this.#state = 'connecting';
    this.#nextAttemptAt = null;
    const client = mqtt.connect(settings.url, options);
    this.#client = client;
    client.on('connect', () => {
      if (this.#client !== client) return;
      this.#state = 'connected';
      // A command is one small packet: without this, Nagle's algorithm holds it until the broker acknowledges the
      // previous one (up to its 40 ms delayed ACK), which doubled a write's round trip in bench/mqtt.ts.
      setNoDelay(client);
      this.#connectedAt = this.context.clock.now();
      this.#failures = 0;
      this.#lastError = null;
      this.context.journal.log(`mqtt: connected to ${publicUrl(settings.url)}`);
      this.listener.connected(client);
    });
    client.on('message', (topic, payload, packet) => {
      if (this.#client === client) this.listener.message(topic, payload, packet.retain === true);
    });
    client.on('error', (error) => {
      if (this.#client === client) this.#lastError = error.message || String(error);
    });
    client.on('close', () => {
      if (this.#client !== client) return;
      this.#closed(client, settings.url);
    });
  }

  /** The connection ended or never came up: try again after the back-off, unless the bridge stopped. */
  #closed(client: MqttClient, url: string): void {
    const was = this.#state;
    this.#state = 'disconnected';
    this.#lastError ??= was === 'connected' ? 'The broker closed the connection' : 'The broker did not answer';
    client.removeAllListeners();
    // The client is not reused: a new attempt makes a new one, so nothing of the old session lingers.
    client.on('error', () => {});
    client.end(true);
    this.#client = null;
    if (this.#stopped) return;
    this.listener.disconnected();
    const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** this.#failures);
    this.#failures += 1;
    this.#nextAttemptAt = this.context.clock.now() + delay;
    // Logged when a connection is lost or the first attempt fails, not on every retry of a broker that stays away.
    if (was === 'connected' || this.#failures === 1)
      this.context.journal.log(`mqtt: lost ${publicUrl(url)} (${this.#lastError}); trying again in ${delay / 1000} s`);
    this.#cancelRetry = this.context.clock.setTimeout(() => {
      this.#cancelRetry = null;
      if (!this.#stopped && this.#client === null) this.#open();
    }, delay);
  }

  async #close(): Promise<void> {
    this.#cancelRetry?.();
    this.#cancelRetry = null;
    const client = this.#client;
    this.#client = null;
    this.#state = 'disabled';
    if (!client) return;
    client.removeAllListeners();
    client.on('error', () => {});
    await client.endAsync(true);
  }
}

/** Turns Nagle's algorithm off on a TCP or TLS connection (a WebSocket stream has no such switch). */
export function setNoDelay(client: MqttClient): void {
  const stream = client.stream as { setNoDelay?: (noDelay: boolean) => void } | undefined;
  stream?.setNoDelay?.(true);
}
