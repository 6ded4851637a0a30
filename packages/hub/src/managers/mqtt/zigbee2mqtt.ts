import { HearthError, type Zigbee2MqttEvent } from '@hearth/contract';
import type { MqttClient } from 'mqtt';
import type { CapabilityDriver } from '../../core/device-control';
import type { HubContext } from '../../platform/context';
import type { AppService } from '../apps/service';
import type { DeviceService } from '../devices/service';
import type { FlowRegistry } from '../flow/registry';
import { WriteConfirmations } from './confirm';
import { type CapabilityMapping, type DeviceShape, setPayload, shapeOf, valuesFromState } from './exposes';
import { errorText, MAX_STATE_BYTES, MQTT_APP_ID, readJson, readOnlyOptions, SOURCE, storeValues } from './shared';
import { onlineState, Zigbee2MqttBridgeTopics } from './z2m-bridge';

export { MQTT_APP_ID };

export const DRIVER_ID = `homey:app:${MQTT_APP_ID}:zigbee2mqtt`;
/** `bridge/devices` lists every device with its definition: large networks publish a few hundred KB. */
const MAX_DEVICES_BYTES = 8 * 1024 * 1024;
const OFFLINE = 'Offline (zigbee2mqtt says the device is not reachable)';
const REMOVED = 'Removed from zigbee2mqtt (pair it there again, or delete it here)';
export const ZIGBEE2MQTT_DOWN = 'zigbee2mqtt is not running (its bridge/state says offline)';

/** What the bridge keeps on a device it made (`device.store`). */
interface BridgeStore {
  friendlyName: string;
  mapping: CapabilityMapping[];
  action: DeviceShape['action'];
}

/** The bridge's flow trigger: a remote or button sent an action (`single`, `double`, `on`, `brightness_move_up` …). */
export const ACTION_TRIGGER = { uri: `homey:app:${MQTT_APP_ID}`, id: 'action' } as const;

/** Who hears of devices joining: the pair sessions that opened the network (z2m-pairing.ts). */
export interface JoinListener {
  event(entry: Zigbee2MqttEvent): void;
  /** A device new in `bridge/devices`: the zone it goes to, and who counts it as theirs once it is made. */
  newDevice(ieeeAddress: string): { zoneId: string | null; added(deviceId: string): void } | null;
}

/** The part of the broker the bridge needs: its client while connected, and the base topic. */
export interface BrokerLink {
  readonly client: MqttClient | null;
  baseTopic(): string;
}

/**
 * zigbee2mqtt's devices as hub devices (its documentation, "MQTT topics and messages"): `bridge/devices` (retained)
 * makes and updates one hub device per Zigbee device, keyed by its IEEE address; `<friendly_name>` carries its
 * state, `<friendly_name>/availability` whether it is reachable; writes go to `<friendly_name>/set`. A retained
 * state equal to the stored one changes nothing and so fires no flow (the device cards fire on changes only).
 */
export class Zigbee2Mqtt {
  /** Hub device id by friendly name, for routing state topics; rebuilt from the devices on every change. */
  #byName = new Map<string, string>();
  readonly confirmations: WriteConfirmations;
  /** zigbee2mqtt's own topics: its info, its device events, and requests to it (permit join). */
  readonly bridge: Zigbee2MqttBridgeTopics;
  #joins: JoinListener | null = null;

  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
    private readonly apps: AppService,
    private readonly broker: BrokerLink,
    private readonly flowCards: FlowRegistry,
    confirmTimeoutMs?: number,
  ) {
    this.confirmations = new WriteConfirmations(context, confirmTimeoutMs);
    this.bridge = new Zigbee2MqttBridgeTopics(context, broker, {
      left: (ieee) => this.#left(ieee),
      online: (online) => this.#bridgeOnline(online),
      event: (entry) => this.#joins?.event(entry),
    });
  }

  /** Tells `listener` of devices joining and made; answers its undo. */
  listenForJoins(listener: JoinListener): () => void {
    this.#joins = listener;
    return () => {
      if (this.#joins === listener) this.#joins = null;
    };
  }

  /** Registers the action trigger; answers its undo. */
  registerCards(): () => void {
    return this.flowCards.registerCard({
      type: 'trigger',
      ...ACTION_TRIGGER,
      title: 'A Zigbee remote sent an action',
      args: [
        { name: 'device', type: 'device', title: 'Remote', filter: `driver_id=${DRIVER_ID}` },
        { name: 'action', type: 'text', title: 'Action (empty: any)', required: false },
      ],
      tokens: [{ id: 'action', title: 'Action', type: 'string', example: 'single' }],
      run: ({ args, state }) => {
        const device = args.device as { id?: unknown } | string | undefined;
        const deviceId = typeof device === 'string' ? device : device?.id;
        if (deviceId !== state.deviceId) return false;
        return typeof args.action !== 'string' || args.action === '' || args.action === state.action;
      },
    });
  }

  /** The bridge's devices, as the device-control path reaches them. */
  readonly driver: CapabilityDriver = {
    setCapabilityValues: async (device, values) => {
      const record = this.devices.require(device.id);
      const store = record.store as Partial<BridgeStore>;
      const client = this.broker.client;
      if (!client) throw new HearthError('unavailable', `Device ${record.name} is unavailable: the MQTT broker is not connected`);
      if (!store.friendlyName || !Array.isArray(store.mapping))
        throw new HearthError('unavailable', `Device ${record.name} is unavailable: zigbee2mqtt has not described it`);
      const payload = setPayload(store.mapping, values);
      // Commands zigbee2mqtt does not echo (a cover's open/close/stop) are done once published.
      const echoed = Object.fromEntries(
        Object.entries(values).filter(([id]) => store.mapping?.some((m) => m.capabilityId === id && m.kind !== 'command')),
      );
      const confirmed = this.confirmations.wait(device.id, record.name, echoed);
      try {
        await client.publishAsync(`${this.broker.baseTopic()}/${store.friendlyName}/set`, JSON.stringify(payload), { qos: 1 });
      } catch (error) {
        this.confirmations.failAll(`Publishing to ${record.name} failed: ${errorText(error)}`, device.id);
      }
      await confirmed;
    },
  };

  /** Reads the devices made earlier, so their state topics route before `bridge/devices` arrives again. */
  start(): void {
    this.#index();
  }

  subscribe(client: MqttClient): void {
    client.subscribe(`${this.broker.baseTopic()}/#`, { qos: 1 }, (error) => {
      if (error) this.context.journal.log(`mqtt: subscribing to ${this.broker.baseTopic()}/# failed: ${error.message}`);
    });
  }

  /** How many hub devices the bridge made. */
  count(): number {
    return this.devices.listByApp(MQTT_APP_ID).length;
  }

  message(topic: string, payload: Buffer, retained: boolean): void {
    const base = `${this.broker.baseTopic()}/`;
    if (!topic.startsWith(base)) return;
    const rest = topic.slice(base.length);
    if (rest === 'bridge/devices') {
      readJson(this.context, topic, payload, MAX_DEVICES_BYTES, (devices) => this.#sync(topic, devices));
      return;
    }
    if (this.bridge.message(topic, rest, payload)) return;
    const stateOf = this.#byName.get(rest);
    if (stateOf) {
      readJson(this.context, topic, payload, MAX_STATE_BYTES, (state) => this.#state(topic, stateOf, state, retained));
      return;
    }
    if (rest.endsWith('/availability')) {
      const deviceId = this.#byName.get(rest.slice(0, -'/availability'.length));
      if (deviceId) this.#availability(topic, deviceId, payload);
    }
  }

  #index(): void {
    this.#byName = new Map(
      this.devices.listByApp(MQTT_APP_ID).flatMap((device) => {
        const name = (device.store as Partial<BridgeStore>).friendlyName;
        return typeof name === 'string' ? [[name, device.id] as const] : [];
      }),
    );
  }

  /**
   * Makes a hub device for every Zigbee device new in `bridge/devices`, and follows renames and new exposes. A
   * device that left the list is kept, unavailable, with its flows and insights: the household deletes it, or it
   * comes back when it is paired again (same IEEE address).
   */
  #sync(topic: string, list: unknown): void {
    if (!Array.isArray(list)) {
      this.context.journal.log(`mqtt: ignored ${topic}: not a list of devices`);
      return;
    }
    const driver = this.apps.findDriver(DRIVER_ID);
    if (!driver) {
      this.context.journal.log(`mqtt: ignored ${topic}: the ${MQTT_APP_ID} app is not installed`);
      return;
    }
    const existing = new Map(
      this.devices.listByApp(MQTT_APP_ID).map((device) => [String(device.data.ieeeAddress ?? ''), device] as const),
    );
    const listed = new Set<string>();
    for (const entry of list) {
      if (typeof entry !== 'object' || entry === null) continue;
      const zigbee = entry as Record<string, unknown>;
      const ieee = zigbee.ieee_address;
      const name = zigbee.friendly_name;
      // The coordinator is listed too; devices still being interviewed have no definition yet.
      if (zigbee.type === 'Coordinator' || typeof ieee !== 'string' || typeof name !== 'string' || !name) continue;
      listed.add(ieee);
      const definition = zigbee.definition as Record<string, unknown> | null | undefined;
      if (!definition || typeof definition !== 'object') continue;
      const shape = shapeOf(definition.exposes);
      const capabilities = shape.mappings.map((m) => m.capabilityId);
      const capabilitiesOptions = readOnlyOptions(capabilities, shape.setable);
      const store: BridgeStore = { friendlyName: name, mapping: shape.mappings, action: shape.action };
      const device = existing.get(ieee);
      if (!device) {
        const model = [definition.vendor, definition.model].filter((p) => typeof p === 'string').join(' ');
        const join = this.#joins?.newDevice(ieee) ?? null;
        const created = this.devices.create(driver, {
          ...(join?.zoneId ? { zone: join.zoneId } : {}),
          name,
          data: { ieeeAddress: ieee },
          store: { ...store },
          class: shape.class,
          capabilities,
          capabilitiesOptions,
          unreported: true,
        });
        this.context.journal.log(`mqtt: added zigbee2mqtt device ${name} (${model || ieee})`);
        join?.added(created.id);
        continue;
      }
      const before = device.store as Partial<BridgeStore>;
      const back = device.unavailableMessage === REMOVED;
      if (
        !back &&
        before.friendlyName === name &&
        JSON.stringify(before.mapping) === JSON.stringify(shape.mappings) &&
        JSON.stringify(before.action ?? null) === JSON.stringify(shape.action)
      )
        continue;
      this.devices.updateFromApp(device.id, {
        store: { ...device.store, ...store },
        capabilities,
        capabilitiesOptions,
        class: shape.class,
        ...(back ? { unavailableMessage: null } : {}),
      });
    }
    for (const [ieee, device] of existing) {
      if (listed.has(ieee)) continue;
      if (this.#remove(device)) this.context.journal.log(`mqtt: zigbee2mqtt no longer lists ${device.name} (${ieee})`);
    }
    this.#index();
  }

  /**
   * While zigbee2mqtt itself is down no device of it is reachable; when it is back, the availability messages it
   * publishes say which are. A device unavailable for its own reason keeps that reason.
   */
  #bridgeOnline(online: boolean): void {
    for (const device of this.devices.listByApp(MQTT_APP_ID)) {
      if (device.driverId !== DRIVER_ID) continue;
      if (online && device.unavailableMessage === ZIGBEE2MQTT_DOWN)
        this.devices.updateFromApp(device.id, { unavailableMessage: null });
      if (!online && device.unavailableMessage === null)
        this.devices.updateFromApp(device.id, { unavailableMessage: ZIGBEE2MQTT_DOWN });
    }
  }

  /** A device that left the network is removed at once, before zigbee2mqtt publishes its new device list. */
  #left(ieee: string): void {
    const device = this.devices.listByApp(MQTT_APP_ID).find((d) => d.data.ieeeAddress === ieee);
    if (device && this.#remove(device)) this.#index();
  }

  /** Keeps a removed device, unavailable, with its flows and insights; answers whether it was not removed before. */
  #remove(device: { id: string; store: Record<string, unknown>; unavailableMessage: string | null }): boolean {
    if (device.unavailableMessage === REMOVED) return false;
    const { friendlyName: _gone, ...rest } = device.store;
    this.devices.updateFromApp(device.id, { store: rest, unavailableMessage: REMOVED });
    return true;
  }

  #state(topic: string, deviceId: string, state: unknown, retained: boolean): void {
    if (typeof state !== 'object' || state === null || Array.isArray(state)) {
      this.context.journal.log(`mqtt: ignored ${topic}: not a JSON object`);
      return;
    }
    const device = this.devices.find(deviceId);
    if (!device) return;
    const { mapping, action } = device.store as Partial<BridgeStore>;
    if (!Array.isArray(mapping)) return;
    const pressed = action ? (state as Record<string, unknown>)[action.property] : undefined;
    // A press is an event, not a state: one the broker kept (retained) happened before and fires nothing now.
    if (typeof pressed === 'string' && pressed !== '' && !retained) {
      this.flowCards.fire({
        ...ACTION_TRIGGER,
        tokens: { action: pressed },
        state: { deviceId, action: pressed },
        source: SOURCE,
      });
    }
    const { values, problems } = valuesFromState(mapping, state as Record<string, unknown>);
    for (const problem of problems) this.context.journal.log(`mqtt: ignored ${topic} ${problem}`);
    storeValues(this.context, this.devices, topic, deviceId, values);
    this.confirmations.seen(deviceId, values);
  }

  /** A device's `<friendly_name>/availability`. */
  #availability(topic: string, deviceId: string, payload: Buffer): void {
    const state = onlineState(payload);
    if (state === null) {
      this.context.journal.log(`mqtt: ignored ${topic}: availability is neither online nor offline`);
      return;
    }
    const device = this.devices.find(deviceId);
    const message = state === 'online' ? null : OFFLINE;
    if (device && device.unavailableMessage !== message) this.devices.updateFromApp(deviceId, { unavailableMessage: message });
  }
}
