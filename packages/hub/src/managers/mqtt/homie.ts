import { HearthError } from '@hearth/contract';
import type { MqttClient } from 'mqtt';
import type { CapabilityValue } from '../../core/bus';
import type { CapabilityDriver } from '../../core/device-control';
import type { HubContext } from '../../platform/context';
import type { AppService } from '../apps/service';
import type { DeviceService } from '../devices/service';
import { WriteConfirmations } from './confirm';
import { type HomieMapping, type HomieProperty, homiePayload, homieShape, readHomieValue } from './homie-shape';
import { describeHomie5Device, HOMIE_5 } from './homie5';
import { errorText, MAX_STATE_BYTES, MQTT_APP_ID, readOnlyOptions, storeValues } from './shared';
import type { BrokerLink } from './zigbee2mqtt';

export const HOMIE_DRIVER_ID = `homey:app:${MQTT_APP_ID}:homie`;
/** A device publishing more attributes than this is not one: the rest are dropped (and said once). */
const MAX_TOPICS_PER_DEVICE = 2_000;
const NOT_READY: Readonly<Record<string, string>> = {
  lost: 'Offline (the Homie device is lost)',
  disconnected: 'Offline (the Homie device disconnected)',
  sleeping: 'Asleep (the Homie device is sleeping)',
  alert: 'The Homie device reports an alert',
};

interface HomieStore {
  mapping: HomieMapping[];
}

/**
 * Homie devices (the Homie convention 4.0, "homie/<device>/…", and 5.0, "homie/5/<device>/…" with its attributes in
 * one `$description` document: `homie5.ts`): what a device publishes (retained) — `$state`,
 * `$name`, `$nodes`, each node's `$properties`, each property's `$datatype`, `$settable`, `$unit`, `$format` and value
 * — is kept per device; once its `$state` is `ready` the device becomes (or updates) one hub device whose capabilities
 * come from its properties. Values follow the property topics, writes go to `<property>/set` and wait for the device
 * to report the value; `$state` other than `ready` makes the device unavailable.
 */
export class HomieDevices {
  /** What each Homie device published, by device id, then by its topic under the device (`$name`, `node/prop/$unit`). */
  readonly #topics = new Map<string, Map<string, string>>();
  readonly #overflowed = new Set<string>();
  readonly confirmations: WriteConfirmations;

  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
    private readonly apps: AppService,
    private readonly broker: BrokerLink & { homiePrefix(): string },
    confirmTimeoutMs?: number,
  ) {
    this.confirmations = new WriteConfirmations(context, confirmTimeoutMs);
  }

  readonly driver: CapabilityDriver = {
    setCapabilityValues: async (device, values) => {
      const record = this.devices.require(device.id);
      const client = this.broker.client;
      if (!client) throw new HearthError('unavailable', `Device ${record.name} is unavailable: the MQTT broker is not connected`);
      const mapping = (record.store as Partial<HomieStore>).mapping ?? [];
      const homieId = String(record.data.homieId);
      const writes = Object.entries(values).map(([capabilityId, value]) => {
        const property = mapping.find((m) => m.capabilityId === capabilityId && m.setable);
        if (!property) throw new HearthError('invalid_parameter', `${record.name} takes no writes to ${capabilityId}`);
        const payload = homiePayload(property, value);
        // The device reports the value it took, in its own steps: that is the value that confirms the write.
        return { property, payload, expected: readHomieValue(property, payload) ?? value };
      });
      const confirmed = this.confirmations.wait(
        device.id,
        record.name,
        Object.fromEntries(writes.map((w) => [w.property.capabilityId, w.expected])),
      );
      try {
        for (const { property, payload } of writes)
          await client.publishAsync(`${this.broker.homiePrefix()}/${homieId}/${property.path}/set`, payload, { qos: 1 });
      } catch (error) {
        this.confirmations.failAll(`Publishing to ${record.name} failed: ${errorText(error)}`, device.id);
      }
      await confirmed;
    },
  };

  subscribe(client: MqttClient): void {
    const topic = `${this.broker.homiePrefix()}/#`;
    client.subscribe(topic, { qos: 1 }, (error) => {
      if (error) this.context.journal.log(`mqtt: subscribing to ${topic} failed: ${error.message}`);
    });
  }

  message(topic: string, payload: Buffer): void {
    const prefix = `${this.broker.homiePrefix()}/`;
    if (!topic.startsWith(prefix)) return;
    const [first, ...segments] = topic.slice(prefix.length).split('/');
    // A 5.0 device is kept as `5/<device>`: the path under the root where its topics, and so its writes, are.
    const homie5 = first === HOMIE_5;
    const deviceSegment = homie5 ? segments.shift() : first;
    const homieId = homie5 ? `${HOMIE_5}/${deviceSegment}` : first;
    const path = segments.join('/');
    // Writes (ours or another controller's) are commands, not state; `$broadcast` is for every device, not one.
    if (!deviceSegment || deviceSegment.startsWith('$') || !path || path.endsWith('/set')) return;
    if (payload.length > MAX_STATE_BYTES) {
      this.context.journal.log(`mqtt: ignored ${topic}: ${payload.length} bytes is more than ${MAX_STATE_BYTES}`);
      return;
    }
    let topics = this.#topics.get(homieId);
    if (!topics) {
      topics = new Map();
      this.#topics.set(homieId, topics);
    }
    if (!topics.has(path) && topics.size >= MAX_TOPICS_PER_DEVICE) {
      if (!this.#overflowed.has(homieId)) this.context.journal.log(`mqtt: ignored more topics of Homie device ${homieId}`);
      this.#overflowed.add(homieId);
      return;
    }
    const text = payload.toString('utf8');
    topics.set(path, text);
    try {
      if (path === '$state') this.#state(homieId, text);
      else if (homie5 && path === '$description') {
        describeHomie5Device(topics, text);
        if (topics.get('$state') === 'ready') this.#sync(homieId, true);
      } else if (!path.includes('$')) this.#value(topic, homieId, path, text);
      // A broker hands retained messages out in its own order, not the device's: an attribute after `ready` counts too.
      else if (topics.get('$state') === 'ready') this.#sync(homieId, false);
    } catch (error) {
      this.context.journal.log(`mqtt: handling ${topic} failed: ${errorText(error)}`);
    }
  }

  #device(homieId: string) {
    return this.devices
      .listByApp(MQTT_APP_ID)
      .find((device) => device.driverId === HOMIE_DRIVER_ID && device.data.homieId === homieId);
  }

  #state(homieId: string, state: string): void {
    if (state === 'ready') this.#sync(homieId, true);
    const device = this.#device(homieId);
    if (!device || state === 'init' || state === '') return;
    const message = state === 'ready' ? null : (NOT_READY[state] ?? `The Homie device says ${state.slice(0, 40)}`);
    if (device.unavailableMessage !== message) this.devices.updateFromApp(device.id, { unavailableMessage: message });
  }

  /** The device's properties, from its `$nodes` and each node's `$properties` (array nodes are left out). */
  #properties(topics: Map<string, string>): HomieProperty[] {
    const list = (value: string | undefined) =>
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    return list(topics.get('$nodes')).flatMap((node) =>
      list(topics.get(`${node}/$properties`)).map((id) => {
        const attributes: Record<string, string> = {};
        for (const name of ['$name', '$datatype', '$settable', '$unit', '$format'])
          attributes[name] = topics.get(`${node}/${id}/${name}`) ?? '';
        return { node, id, attributes };
      }),
    );
  }

  /**
   * Makes or updates the hub device of a device that said it is ready, and stores the values it published;
   * `sayWhyNot`: logs a device none of whose properties maps (once per `ready`, not per attribute).
   */
  #sync(homieId: string, sayWhyNot: boolean): void {
    const topics = this.#topics.get(homieId);
    if (!topics) return;
    const shape = homieShape(this.#properties(topics));
    if (shape.mappings.length === 0) {
      if (!sayWhyNot) return;
      this.context.journal.log(`mqtt: ignored Homie device ${homieId}: none of its properties maps to a capability`);
      return;
    }
    const capabilities = shape.mappings.map((m) => m.capabilityId);
    const capabilitiesOptions = readOnlyOptions(
      capabilities,
      shape.mappings.filter((m) => m.setable).map((m) => m.capabilityId),
    );
    const store: HomieStore = { mapping: shape.mappings };
    let device = this.#device(homieId);
    if (!device) {
      const driver = this.apps.findDriver(HOMIE_DRIVER_ID);
      if (!driver) {
        this.context.journal.log(`mqtt: ignored Homie device ${homieId}: the ${MQTT_APP_ID} app is not installed`);
        return;
      }
      const name = topics.get('$name')?.slice(0, 100) || homieId;
      device = this.devices.create(driver, {
        name,
        data: { homieId },
        store: { ...store },
        class: shape.class,
        capabilities,
        capabilitiesOptions,
        unreported: true,
      });
      this.context.journal.log(`mqtt: added Homie device ${name} (${homieId})`);
    } else if (JSON.stringify((device.store as Partial<HomieStore>).mapping) !== JSON.stringify(shape.mappings)) {
      this.devices.updateFromApp(device.id, {
        store: { ...device.store, ...store },
        capabilities,
        capabilitiesOptions,
        class: shape.class,
      });
    }
    // Values published before the device was ready (or before it was made) are its state now.
    const values: Record<string, CapabilityValue> = {};
    for (const mapping of shape.mappings) {
      const raw = topics.get(mapping.path);
      const value = raw === undefined ? undefined : readHomieValue(mapping, raw);
      if (value !== undefined) values[mapping.capabilityId] = value;
    }
    storeValues(this.context, this.devices, `${this.broker.homiePrefix()}/${homieId}`, device.id, values);
  }

  #value(topic: string, homieId: string, path: string, payload: string): void {
    const device = this.#device(homieId);
    if (!device) return;
    const mapping = ((device.store as Partial<HomieStore>).mapping ?? []).find((m) => m.path === path);
    if (!mapping) return;
    const value = readHomieValue(mapping, payload);
    if (value === undefined) {
      this.context.journal.log(`mqtt: ignored ${topic}: ${JSON.stringify(payload.slice(0, 40))} is not a ${mapping.kind}`);
      return;
    }
    storeValues(this.context, this.devices, topic, device.id, { [mapping.capabilityId]: value });
    this.confirmations.seen(device.id, { [mapping.capabilityId]: value });
  }
}
