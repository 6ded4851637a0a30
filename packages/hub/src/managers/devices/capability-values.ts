import { randomUUID } from 'node:crypto';
import { notFound } from '@hearth/contract';
import type { Statement } from 'better-sqlite3';
import type { ChangeSource } from '../../core/bus';
import type { HubContext } from '../../platform/context';
import { appCapabilities } from '../../runtime/app-capabilities';
import {
  type AppCapabilities,
  type CapabilityDefinition,
  effectiveCapability,
  validateCapabilityValue,
} from '../../runtime/capabilities';
import { type CapabilityValue, react, type SimulatedDevice, tick } from '../../runtime/simulation';
import { transact, transactStatement } from '../../store/database';
import type { AppService, ResolvedDriver } from '../apps/service';
import { DeviceCache, type DeviceRecord } from './records';

const SIMULATION: ChangeSource = { kind: 'simulation' };

/** How a value is written: who changed it, whether the simulated device reacts, the change's transaction. */
export interface ValueWriteOptions {
  source: ChangeSource;
  react?: boolean;
  transactionId?: string;
}

/** What the capability values read of the device records (the device service keeps them). */
export interface DeviceRecords {
  require(id: string): DeviceRecord;
  list(): DeviceRecord[];
  driverOf(device: DeviceRecord): ResolvedDriver | undefined;
}

/**
 * Devices' capability values: the stored values, the writes of values devices report or confirm (with the
 * simulated device's reactions) and the simulation that moves the devices of manifest-only apps.
 */
export class CapabilityValues {
  private lastTick: number;
  constructor(
    private readonly context: HubContext,
    private readonly apps: AppService,
    private readonly devices: DeviceRecords,
    /** The device service's prepared statements. */
    private readonly sql: (text: string) => Statement,
  ) {
    this.lastTick = context.clock.now();
    this.#values = new DeviceCache(context.db);
  }

  /**
   * Capability values, parsed once: every capability write and every flow reads them. A change made here updates
   * them; the device service forgets a device's entry when it changes its rows.
   */
  readonly #values: DeviceCache<Map<string, { value: CapabilityValue; lastUpdated: number | null }>>;

  /** Forgets the cached values of a device. */
  forget(id: string): void {
    this.#values.forget(id);
  }

  /** The capability values of a device with the time each was last updated (epoch ms). */
  values(id: string): ReadonlyMap<string, { value: CapabilityValue; lastUpdated: number | null }> {
    const cache = this.#values.fresh();
    const cached = cache.get(id);
    if (cached) return cached;
    const rows = this.sql('SELECT capability_id, value, last_updated FROM device_capability WHERE device_id = ?').all(id) as {
      capability_id: string;
      value: string | null;
      last_updated: number | null;
    }[];
    const values = new Map(
      rows.map((r) => [r.capability_id, { value: r.value === null ? null : JSON.parse(r.value), lastUpdated: r.last_updated }]),
    );
    cache.set(id, values);
    return values;
  }

  capabilityOf(device: DeviceRecord, capabilityId: string): CapabilityDefinition {
    if (!device.capabilities.includes(capabilityId)) throw notFound('Capability', capabilityId);
    return effectiveCapability(capabilityId, device.capabilitiesOptions[capabilityId], this.own(device.appId));
  }

  /** The capabilities app `appId` declares for its devices (none once it is uninstalled). */
  own(appId: string): AppCapabilities {
    return appCapabilities(this.apps.find(appId)?.manifest);
  }

  getCapabilityValue(deviceId: string, capabilityId: string): CapabilityValue {
    const device = this.devices.require(deviceId);
    const capability = this.capabilityOf(device, capabilityId);
    if (!capability.getable) return null;
    return this.values(deviceId).get(capabilityId)?.value ?? null;
  }

  /**
   * Stores a value the device itself reported (a sensor's reading, an app's `setCapabilityValue`, the seed): it
   * is checked against the capability but not against `setable` or the app's run state, and with `react` the
   * simulated device reacts to it. Writes people and flows make go through the device-control path instead
   * (`control.ts`), which asks the device's driver first.
   */
  reportCapabilityValue(deviceId: string, capabilityId: string, value: unknown, options: ValueWriteOptions): CapabilityValue {
    const device = this.devices.require(deviceId);
    const capability = this.capabilityOf(device, capabilityId);
    // A device may say it does not know a value (the ecosystem's null: a sensor not read yet, a lost reading).
    const checked = value === null ? null : validateCapabilityValue(capability, value);
    this.confirmCapabilityValue(device, capabilityId, checked, options);
    return checked;
  }

  /**
   * Stores a value the device's driver confirmed (or reported), with the simulated device's reactions when asked
   * (a socket turned on draws power), and announces each change.
   */
  confirmCapabilityValue(device: DeviceRecord, capabilityId: string, value: CapabilityValue, options: ValueWriteOptions): void {
    const reactions = options.react ? this.#reactions(device, capabilityId, value) : {};
    this.write(device, { [capabilityId]: value, ...reactions }, options.source, options.transactionId);
  }

  /** What a simulated device does by itself when one of its values is set (a socket turned on draws power). */
  #reactions(device: DeviceRecord, capabilityId: string, value: CapabilityValue) {
    const current = Object.fromEntries([...this.values(device.id)].map(([k, v]) => [k, v.value]));
    const kind = this.devices.driverOf(device)?.driver.simulation ?? 'none';
    return react({ kind, values: current, settings: device.settings, capabilities: device.capabilities }, capabilityId, value);
  }

  /**
   * Stores values, then publishes one `capability` event per value and one `device.update` on the wire, and
   * `device.capability` on the domain bus for each.
   */
  private write(
    device: DeviceRecord,
    changes: Record<string, CapabilityValue>,
    source: ChangeSource,
    transactionId?: string,
  ): void {
    const now = this.context.clock.now();
    const current = this.values(device.id);
    const own = this.own(device.appId);
    // Read before the writes below update the cached values.
    const previous = new Map(Object.keys(changes).map((id) => [id, current.get(id)?.value ?? null]));
    const update = this.sql('UPDATE device_capability SET value = ?, last_updated = ? WHERE device_id = ? AND capability_id = ?');
    const stored = this.#values.fresh().get(device.id);
    // A button press (not getable) is an event, not a state: it is announced but never stored.
    const kept = Object.entries(changes).filter(
      ([capabilityId]) => effectiveCapability(capabilityId, device.capabilitiesOptions[capabilityId], own).getable,
    );
    const store = () => {
      for (const [capabilityId, value] of kept) {
        update.run(value === null ? null : JSON.stringify(value), now, device.id, capabilityId);
        stored?.set(capabilityId, { value, lastUpdated: now });
      }
    };
    // One value (the usual write) is one statement; a device's reactions are stored with it, all or none.
    if (kept.length === 1) transactStatement(this.context.db, store);
    else if (kept.length > 1) transact(this.context.db, store);
    const first = Object.keys(changes)[0];
    for (const [capabilityId, value] of Object.entries(changes)) {
      // Only the value the caller set carries its transactionId; the device's reactions get their own.
      const id = capabilityId === first && transactionId ? transactionId : randomUUID();
      this.context.bus.emit('device.capability', {
        deviceId: device.id,
        capabilityId,
        value,
        previous: previous.get(capabilityId) ?? null,
        at: now,
        transactionId: id,
        source,
      });
    }
  }

  /** One step of the simulated world for every device whose app runs. */
  simulate(now: number): void {
    const elapsed = now - this.lastTick;
    this.lastTick = now;
    if (!this.context.db.open) return;
    for (const device of this.devices.list()) {
      const kind = this.devices.driverOf(device)?.driver.simulation ?? 'none';
      // Devices of apps with code are the app's to move; the hub simulates only manifest-only apps' devices.
      if (kind === 'none' || !this.apps.isRunning(device.appId) || this.apps.processHost(device.appId)) continue;
      const values = Object.fromEntries([...this.values(device.id)].map(([k, v]) => [k, v.value]));
      const sim: SimulatedDevice = { kind, values, settings: device.settings, capabilities: device.capabilities };
      const changes = tick(sim, elapsed);
      if (Object.keys(changes).length > 0) this.write(device, changes, SIMULATION);
    }
  }
}
