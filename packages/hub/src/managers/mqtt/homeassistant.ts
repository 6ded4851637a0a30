import { HearthError } from '@hearth/contract';
import type { MqttClient } from 'mqtt';
import type { CapabilityValue } from '../../core/bus';
import type { CapabilityDriver } from '../../core/device-control';
import type { HubContext } from '../../platform/context';
import type { AppService } from '../apps/service';
import type { DeviceRecord, DeviceService } from '../devices/service';
import type { FlowRegistry } from '../flow/registry';
import { WriteConfirmations } from './confirm';
import { discover, type HaEntity } from './discovery';
import { renderTemplate } from './ha-template';
import { commandsFor, readValue, reportedAfter } from './ha-values';
import { errorText, MAX_STATE_BYTES, MQTT_APP_ID, readJson, readOnlyOptions, SOURCE, storeValues } from './shared';
import type { BrokerLink } from './zigbee2mqtt';

export const HA_DRIVER_ID = `homey:app:${MQTT_APP_ID}:homeassistant`;
/** The bridge's flow trigger for HA device triggers: a remote's `button_short_press` of `button_1` … */
export const DEVICE_TRIGGER = { uri: `homey:app:${MQTT_APP_ID}`, id: 'device_trigger' } as const;
const OFFLINE = 'Offline (its availability topic says it is not reachable)';
const REMOVED = 'Removed (its discovery config was deleted; it comes back when announced again)';

/** What the bridge keeps on a device it made from discovery (`device.store`). */
interface DiscoveryStore {
  entities: HaEntity[];
}

/** Which class wins when one HA device has entities of several components. */
const CLASS_ORDER = ['light', 'windowcoverings', 'thermostat', 'lock', 'fan', 'socket', 'button', 'remote', 'sensor', 'other'];

/**
 * Devices announced with Home Assistant's MQTT discovery (Tasmota, Shelly, ESPHome, zigbee2mqtt in HA mode): each
 * retained config on `homeassistant/…/config` is one entity; entities naming the same `device.identifiers` are one
 * hub device, each entity adding its capabilities. The state and availability topics the configs name are
 * subscribed to as they are learned.
 */
export class HomeAssistantDiscovery {
  /** Hub device ids by the topics their entities read (state and availability). */
  #byTopic = new Map<string, Set<string>>();
  /** The last payload of each availability topic (availability is not stored: the broker retains it). */
  #availability = new Map<string, string>();
  #subscribed = new Set<string>();
  #client: MqttClient | null = null;
  readonly confirmations: WriteConfirmations;

  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
    private readonly apps: AppService,
    private readonly broker: BrokerLink & { discoveryPrefix(): string },
    private readonly flowCards: FlowRegistry,
  ) {
    this.confirmations = new WriteConfirmations(context);
  }

  /** Registers the device-trigger card; answers its undo. */
  registerCards(): () => void {
    return this.flowCards.registerCard({
      type: 'trigger',
      ...DEVICE_TRIGGER,
      title: 'A device sent a trigger',
      args: [
        { name: 'device', type: 'device', title: 'Device', filter: `driver_id=${HA_DRIVER_ID}` },
        { name: 'trigger', type: 'text', title: 'Trigger, as "<type> <subtype>" (empty: any)', required: false },
      ],
      tokens: [
        { id: 'type', title: 'Type', type: 'string', example: 'button_short_press' },
        { id: 'subtype', title: 'Subtype', type: 'string', example: 'button_1' },
      ],
      run: ({ args, state }) => {
        const device = args.device as { id?: unknown } | string | undefined;
        const deviceId = typeof device === 'string' ? device : device?.id;
        if (deviceId !== state.deviceId) return false;
        return typeof args.trigger !== 'string' || args.trigger.trim() === '' || args.trigger.trim() === state.trigger;
      },
    });
  }

  start(): void {
    this.#index();
  }

  subscribe(client: MqttClient): void {
    this.#client = client;
    this.#subscribed.clear();
    this.#subscribeTo(client, [`${this.broker.discoveryPrefix()}/#`, ...this.#byTopic.keys()]);
  }

  count(): number {
    return this.devices.listByApp(MQTT_APP_ID).filter((device) => device.driverId === HA_DRIVER_ID).length;
  }

  readonly driver: CapabilityDriver = {
    setCapabilityValues: async (device, values) => {
      const record = this.devices.require(device.id);
      const client = this.broker.client;
      if (!client) throw new HearthError('unavailable', `Device ${record.name} is unavailable: the MQTT broker is not connected`);
      const current = this.devices.values(device.id);
      const entities = entitiesOf(record);
      const commands = commandsFor(
        entities.flatMap((entity) => entity.writes),
        values,
        (capabilityId) => current.get(capabilityId)?.value ?? undefined,
      );
      const confirmed = this.confirmations.wait(
        device.id,
        record.name,
        expectedReports(entities, values, (capabilityId) => current.get(capabilityId)?.value ?? undefined),
      );
      try {
        for (const { topic, payload } of commands) await client.publishAsync(topic, payload, { qos: 1 });
      } catch (error) {
        this.confirmations.failAll(`Publishing to ${record.name} failed: ${errorText(error)}`, device.id);
      }
      await confirmed;
    },
  };

  message(topic: string, payload: Buffer, retained: boolean): void {
    const prefix = this.broker.discoveryPrefix();
    if (topic.startsWith(`${prefix}/`) && topic.endsWith('/config')) {
      const key = topic.slice(prefix.length + 1, -'/config'.length);
      if (payload.length === 0) this.#remove(topic, key);
      else readJson(this.context, topic, payload, MAX_STATE_BYTES, (config) => this.#discovered(topic, key, config));
      return;
    }
    const deviceIds = this.#byTopic.get(topic);
    if (!deviceIds) return;
    if (payload.length > MAX_STATE_BYTES) {
      this.context.journal.log(`mqtt: ignored ${topic}: ${payload.length} bytes is more than ${MAX_STATE_BYTES}`);
      return;
    }
    const text = payload.toString('utf8');
    for (const deviceId of deviceIds) {
      const device = this.devices.find(deviceId);
      if (!device) continue;
      try {
        this.#state(topic, device, text, retained);
      } catch (error) {
        this.context.journal.log(`mqtt: handling ${topic} failed: ${errorText(error)}`);
      }
    }
  }

  #state(topic: string, device: DeviceRecord, text: string, retained: boolean): void {
    const entities = entitiesOf(device);
    // A trigger is an event: one the broker kept (retained) happened before and fires nothing now.
    if (!retained)
      for (const trigger of entities.flatMap((entity) => entity.triggers ?? [])) this.#trigger(topic, device, trigger, text);
    if (entities.some((entity) => entity.availability.some((a) => a.topic === topic)))
      this.#availabilityChanged(topic, device, text);
    const values: Record<string, CapabilityValue> = {};
    for (const read of entities.flatMap((entity) => entity.reads)) {
      if (read.topic !== topic) continue;
      const result = readValue(read, text);
      if ('value' in result) values[read.capabilityId] = result.value;
      else if ('problem' in result) this.context.journal.log(`mqtt: ignored ${topic} ${read.capabilityId}: ${result.problem}`);
    }
    storeValues(this.context, this.devices, topic, device.id, values);
    this.confirmations.seen(device.id, values);
  }

  #trigger(topic: string, device: DeviceRecord, trigger: NonNullable<HaEntity['triggers']>[number], text: string): void {
    if (trigger.topic !== topic) return;
    const rendered = renderTemplate(trigger.template, text);
    if (!rendered.ok) {
      if (!rendered.missing) this.context.journal.log(`mqtt: ignored ${topic} trigger: ${rendered.problem}`);
      return;
    }
    if (trigger.payload !== undefined && String(rendered.value) !== trigger.payload) return;
    this.flowCards.fire({
      ...DEVICE_TRIGGER,
      tokens: { type: trigger.type, subtype: trigger.subtype },
      state: { deviceId: device.id, trigger: `${trigger.type} ${trigger.subtype}` },
      source: SOURCE,
    });
  }

  /** A device is reachable when each of its entities is, by the entity's availability mode. */
  #availabilityChanged(topic: string, device: DeviceRecord, text: string): void {
    this.#availability.set(topic, text);
    const online = entitiesOf(device).every((entity) => {
      const states = entity.availability.map((a) => {
        const seen = this.#availability.get(a.topic);
        if (seen === undefined) return undefined;
        const rendered = renderTemplate(a.template, seen);
        const value = rendered.ok ? String(rendered.value) : undefined;
        return value === a.online ? true : value === a.offline ? false : undefined;
      });
      const known = states.filter((s): s is boolean => s !== undefined);
      if (known.length === 0) return true;
      if (entity.availabilityMode === 'all') return known.every(Boolean);
      if (entity.availabilityMode === 'any') return known.some(Boolean);
      // `latest`: the topic that spoke last decides, when it is one of the entity's.
      const latest = entity.availability.findIndex((a) => a.topic === topic);
      return latest >= 0 && states[latest] !== undefined ? states[latest] === true : known.every(Boolean);
    });
    const message = online ? null : OFFLINE;
    if (device.unavailableMessage !== message && device.unavailableMessage !== REMOVED)
      this.devices.updateFromApp(device.id, { unavailableMessage: message });
  }

  /** A config, new or again: the entity joins (or updates on) the hub device of its `device.identifiers`. */
  #discovered(topic: string, key: string, config: unknown): void {
    const first = discover(key, config);
    if (!first.ok) {
      this.context.journal.log(`mqtt: ignored ${topic}: ${first.problem}`);
      return;
    }
    const existing = this.#deviceOf(first.device.id) ?? this.#deviceWithEntity(key);
    const others = existing ? entitiesOf(existing).filter((entity) => entity.key !== key) : [];
    const taken = new Set(others.flatMap(capabilitiesOfEntity));
    const objectId = (key.split('/').pop() ?? key).replace(/[^A-Za-z0-9_]/g, '_');
    const found = discover(key, config, (base) => (taken.has(base) ? `${base}.${objectId}` : base));
    if (!found.ok) return;
    const entities = [...others, found.entity].sort((a, b) => a.key.localeCompare(b.key));
    if (!existing) {
      const driver = this.apps.findDriver(HA_DRIVER_ID);
      if (!driver) {
        this.context.journal.log(`mqtt: ignored ${topic}: the ${MQTT_APP_ID} app is not installed`);
        return;
      }
      this.devices.create(driver, {
        name: found.device.name ?? key,
        data: { haDevice: found.device.id },
        store: { entities } satisfies DiscoveryStore,
        class: found.class,
        ...shapeOfEntities(entities),
        unreported: true,
      });
      this.context.journal.log(
        `mqtt: added ${found.device.name ?? key} (${found.device.model ?? found.device.id}) from HA discovery`,
      );
    } else {
      const before = entitiesOf(existing).find((entity) => entity.key === key);
      if (JSON.stringify(before) === JSON.stringify(found.entity) && existing.unavailableMessage !== REMOVED) return;
      const classes = [existing.class, found.class].sort((a, b) => CLASS_ORDER.indexOf(a) - CLASS_ORDER.indexOf(b));
      this.devices.updateFromApp(existing.id, {
        store: { ...existing.store, entities },
        ...shapeOfEntities(entities),
        class: classes[0] ?? found.class,
        ...(existing.unavailableMessage === REMOVED ? { unavailableMessage: null } : {}),
      });
    }
    this.#index();
  }

  /** An empty config deletes the entity; a device left with none stays, unavailable, with its flows and insights. */
  #remove(topic: string, key: string): void {
    const device = this.#deviceWithEntity(key);
    if (!device) return;
    const entities = entitiesOf(device).filter((entity) => entity.key !== key);
    this.devices.updateFromApp(device.id, {
      store: { ...device.store, entities },
      ...(entities.length > 0 ? shapeOfEntities(entities) : {}),
      ...(entities.length === 0 ? { unavailableMessage: REMOVED } : {}),
    });
    this.context.journal.log(`mqtt: ${topic} removed ${key} from ${device.name}`);
    this.#index();
  }

  #deviceOf(haDevice: string): DeviceRecord | undefined {
    return this.#bridged().find((device) => device.data.haDevice === haDevice);
  }

  #deviceWithEntity(key: string): DeviceRecord | undefined {
    return this.#bridged().find((device) => entitiesOf(device).some((entity) => entity.key === key));
  }

  #bridged(): DeviceRecord[] {
    return this.devices.listByApp(MQTT_APP_ID).filter((device) => device.driverId === HA_DRIVER_ID);
  }

  #index(): void {
    const byTopic = new Map<string, Set<string>>();
    for (const device of this.#bridged())
      for (const entity of entitiesOf(device))
        for (const topic of [
          ...entity.reads.map((r) => r.topic),
          ...entity.availability.map((a) => a.topic),
          ...(entity.triggers ?? []).map((t) => t.topic),
        ]) {
          const ids = byTopic.get(topic) ?? new Set<string>();
          ids.add(device.id);
          byTopic.set(topic, ids);
        }
    this.#byTopic = byTopic;
    const client = this.broker.client;
    if (client && client === this.#client) this.#subscribeTo(client, [...byTopic.keys()]);
  }

  #subscribeTo(client: MqttClient, topics: string[]): void {
    const fresh = topics.filter((topic) => !this.#subscribed.has(topic));
    if (fresh.length === 0) return;
    for (const topic of fresh) this.#subscribed.add(topic);
    client.subscribe(fresh, { qos: 1 }, (error) => {
      if (error) this.context.journal.log(`mqtt: subscribing to ${fresh.join(', ')} failed: ${error.message}`);
    });
  }
}

function entitiesOf(device: DeviceRecord): HaEntity[] {
  const { entities } = device.store as Partial<DiscoveryStore>;
  return Array.isArray(entities) ? entities : [];
}

function capabilitiesOfEntity(entity: HaEntity): string[] {
  return [...new Set([...entity.reads.map((r) => r.capabilityId), ...entity.writes.map((w) => w.capabilityId)])];
}

function shapeOfEntities(entities: readonly HaEntity[]) {
  const capabilities = [...new Set(entities.flatMap(capabilitiesOfEntity))];
  const setable = entities.flatMap((entity) => entity.writes.map((w) => w.capabilityId));
  const capabilitiesOptions = readOnlyOptions(capabilities, setable);
  for (const entity of entities)
    for (const [capabilityId, options] of Object.entries(entity.options ?? {}))
      capabilitiesOptions[capabilityId] = { ...capabilitiesOptions[capabilityId], ...options };
  return { capabilities, capabilitiesOptions };
}

/**
 * The values a write waits to see reported (HA's MQTT entities: not optimistic when they have a state topic): each
 * value the entity that takes it also reads back, as the device will report it (rounded to its precision). A
 * cover's open/close/stop is done once sent: its state says where it moves, not the command.
 */
function expectedReports(
  entities: readonly HaEntity[],
  values: Readonly<Record<string, CapabilityValue>>,
  current: (capabilityId: string) => CapabilityValue | undefined,
): Record<string, CapabilityValue> {
  const expected: Record<string, CapabilityValue> = {};
  for (const capabilityId of Object.keys(values)) {
    const entity = entities.find((e) => e.writes.some((w) => w.capabilityId === capabilityId));
    if (!entity || entity.optimistic === true) continue;
    const read = entity.reads.find((r) => r.capabilityId === capabilityId);
    const write = entity.writes.find((w) => w.capabilityId === capabilityId);
    if (!read || !write || read.conversion.kind === 'cover') continue;
    const reported = reportedAfter(read, write, values, current);
    if (reported !== undefined) expected[capabilityId] = reported;
  }
  return expected;
}
