import { randomUUID } from 'node:crypto';
import { type DeviceItem, invalidParameter, notFound } from '@hearth/contract';
import { settingProblem } from '@hearth/contract/device-settings';
import type { Statement } from 'better-sqlite3';
import type { ChangeSource } from '../../core/bus';
import type { HubContext } from '../../platform/context';
import { appCapabilities } from '../../runtime/app-capabilities';
import {
  type AppCapabilities,
  type CapabilityDefinition,
  type CapabilityOptions,
  capabilityDefinition,
  effectiveCapability,
  validateCapabilityValue,
} from '../../runtime/capabilities';
import { type DriverManifest, translate } from '../../runtime/manifest';
import { type CapabilityValue, initialValue, react, type SimulatedDevice, tick } from '../../runtime/simulation';
import { type Migration, rollbackEpoch, transact, transactStatement } from '../../store/database';
import { Statements } from '../../store/statements';
import type { AppService, ResolvedDriver } from '../apps/service';
import type { ZoneStore } from '../zones/store';

export const deviceMigrations: Migration[] = [
  {
    id: 'devices-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE device (
        id TEXT PRIMARY KEY,
        driver_id TEXT NOT NULL,
        app_id TEXT NOT NULL,
        name TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        zone TEXT NOT NULL,
        data TEXT NOT NULL,
        store TEXT NOT NULL DEFAULT '{}',
        settings TEXT NOT NULL DEFAULT '{}',
        class TEXT NOT NULL,
        virtual_class TEXT,
        icon_override TEXT,
        ui_indicator TEXT,
        hidden INTEGER NOT NULL DEFAULT 0,
        capabilities TEXT NOT NULL,
        capabilities_options TEXT NOT NULL DEFAULT '{}',
        energy TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX device_app ON device (app_id);
      CREATE INDEX device_zone ON device (zone);
      CREATE TABLE device_capability (
        device_id TEXT NOT NULL REFERENCES device (id) ON DELETE CASCADE,
        capability_id TEXT NOT NULL,
        value TEXT,
        last_updated INTEGER,
        PRIMARY KEY (device_id, capability_id)
      ) WITHOUT ROWID`),
  },
  {
    // What an app said of its device: unavailable (with the message users see) and a warning.
    id: 'devices-002-app-status',
    up: (db) => db.exec('ALTER TABLE device ADD COLUMN unavailable_message TEXT; ALTER TABLE device ADD COLUMN warning TEXT'),
  },
];

interface DeviceRow {
  id: string;
  driver_id: string;
  app_id: string;
  name: string;
  note: string;
  zone: string;
  data: string;
  store: string;
  settings: string;
  class: string;
  virtual_class: string | null;
  icon_override: string | null;
  ui_indicator: string | null;
  hidden: number;
  capabilities: string;
  capabilities_options: string;
  energy: string | null;
  created_at: string;
  unavailable_message: string | null;
  warning: string | null;
}

export interface DeviceRecord {
  readonly id: string;
  readonly driverId: string;
  readonly appId: string;
  readonly name: string;
  readonly note: string;
  readonly zone: string;
  readonly data: Record<string, unknown>;
  readonly store: Record<string, unknown>;
  readonly settings: Record<string, unknown>;
  readonly class: string;
  readonly virtualClass: string | null;
  readonly iconOverride: string | null;
  readonly uiIndicator: string | null;
  readonly hidden: boolean;
  readonly capabilities: readonly string[];
  readonly capabilitiesOptions: Record<string, CapabilityOptions>;
  readonly energy: Record<string, unknown> | null;
  readonly createdAt: string;
  /** Set by the device's app: the device is unavailable, with this message; `null` when available. */
  readonly unavailableMessage: string | null;
  readonly warning: string | null;
}

const toRecord = (row: DeviceRow): DeviceRecord => ({
  id: row.id,
  driverId: row.driver_id,
  appId: row.app_id,
  name: row.name,
  note: row.note,
  zone: row.zone,
  data: JSON.parse(row.data),
  store: JSON.parse(row.store),
  settings: JSON.parse(row.settings),
  class: row.class,
  virtualClass: row.virtual_class,
  iconOverride: row.icon_override,
  uiIndicator: row.ui_indicator,
  hidden: row.hidden === 1,
  capabilities: JSON.parse(row.capabilities),
  capabilitiesOptions: JSON.parse(row.capabilities_options),
  energy: row.energy === null ? null : JSON.parse(row.energy),
  createdAt: row.created_at,
  unavailableMessage: row.unavailable_message,
  warning: row.warning,
});

/** The devices a group device stands for (`data.groupDevices`), or `null` for a device that is not a group. */
export const groupMembers = (device: DeviceRecord): string[] | null =>
  Array.isArray(device.data.groupDevices) ? (device.data.groupDevices as string[]) : null;

/** What pairing hands over to create a device (seed: "Pair device"). */
export interface NewDevice {
  name: string;
  data: Record<string, unknown>;
  zone?: string;
  store?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  capabilities?: string[];
  capabilitiesOptions?: Record<string, CapabilityOptions>;
  class?: string;
  iconOverride?: string | null;
  energy?: Record<string, unknown>;
}

const NOT_UPDATABLE = ['driverUri', 'driverId', 'data', 'icon', 'iconObj', 'settings', 'class', 'energy', 'ui', 'capabilities'];
/** How often the simulated world moves (meters count, rooms warm up). */
export const SIMULATION_TICK_MS = 30_000;

const SIMULATION: ChangeSource = { kind: 'simulation' };

const uiComponentOrder = ['toggle', 'slider', 'thermostat', 'color', 'picker', 'media', 'button', 'sensor'] as const;

/** Devices: their records, capability values, settings and the simulation that makes them behave. */
export class DeviceService {
  /** Prepared statements, prepared once per service. */
  #statements: Statements | undefined;

  private sql(text: string): Statement {
    this.#statements ??= new Statements(this.context.db);
    return this.#statements.get(text);
  }

  private lastTick: number;
  /** The images a device's app shows for it (camera stills, album art); the app runtime fills this in. */
  appImages: (deviceId: string) => readonly unknown[] = () => [];
  constructor(
    private readonly context: HubContext,
    private readonly apps: AppService,
    private readonly zones: ZoneStore,
  ) {
    this.lastTick = context.clock.now();
  }

  start(): () => void {
    // A device is available only while its app runs.
    const off = this.context.bus.on('app.state', 'devices', ({ appId }) => {
      for (const device of this.listByApp(appId)) this.updated(device.id, ['available']);
    });
    const stopSimulating = this.context.clock.setInterval(() => this.simulate(this.context.clock.now()), SIMULATION_TICK_MS);
    return () => {
      off();
      stopSimulating();
    };
  }

  list(): DeviceRecord[] {
    return (this.sql('SELECT * FROM device ORDER BY created_at, id').all() as DeviceRow[]).map(toRecord);
  }

  listByApp(appId: string): DeviceRecord[] {
    return (this.sql('SELECT * FROM device WHERE app_id = ?').all(appId) as DeviceRow[]).map(toRecord);
  }

  /** Whether any device is in zone `zoneId` (a zone with devices cannot be deleted). */
  hasDevicesIn(zoneId: string): boolean {
    return this.sql('SELECT 1 FROM device WHERE zone = ? LIMIT 1').get(zoneId) !== undefined;
  }

  /**
   * Device records and capability values, parsed once: every capability write and every flow reads them. A change
   * made here forgets the device's entry; a group of changes undone after it was made (the database's rollback
   * epoch) forgets them all.
   */
  readonly #records = new Map<string, DeviceRecord>();
  readonly #values = new Map<string, Map<string, { value: CapabilityValue; lastUpdated: number | null }>>();
  #cacheEpoch = 0;

  #cacheFresh(): void {
    const epoch = rollbackEpoch(this.context.db);
    if (epoch === this.#cacheEpoch) return;
    this.#records.clear();
    this.#values.clear();
    this.#cacheEpoch = epoch;
  }

  /** Forgets what is cached of a device: call after changing its rows other than through this service's writes. */
  forget(id: string): void {
    this.#records.delete(id);
    this.#values.delete(id);
  }

  find(id: string): DeviceRecord | undefined {
    this.#cacheFresh();
    const cached = this.#records.get(id);
    if (cached) return cached;
    const row = this.sql('SELECT * FROM device WHERE id = ?').get(id) as DeviceRow | undefined;
    if (!row) return undefined;
    const record = toRecord(row);
    this.#records.set(id, record);
    return record;
  }

  require(id: string): DeviceRecord {
    const device = this.find(id);
    if (!device) throw notFound('Device', id);
    return device;
  }

  /** The capability values of a device with the time each was last updated (epoch ms). */
  values(id: string): ReadonlyMap<string, { value: CapabilityValue; lastUpdated: number | null }> {
    this.#cacheFresh();
    const cached = this.#values.get(id);
    if (cached) return cached;
    const rows = this.sql('SELECT capability_id, value, last_updated FROM device_capability WHERE device_id = ?').all(id) as {
      capability_id: string;
      value: string | null;
      last_updated: number | null;
    }[];
    const values = new Map(
      rows.map((r) => [r.capability_id, { value: r.value === null ? null : JSON.parse(r.value), lastUpdated: r.last_updated }]),
    );
    this.#values.set(id, values);
    return values;
  }

  /** The driver of a device, or `undefined` when its app is gone. */
  driverOf(device: DeviceRecord): ResolvedDriver | undefined {
    return this.apps.findDriver(device.driverId);
  }

  defaultZone(): string {
    return this.zones.root()?.id ?? '';
  }

  create(driver: ResolvedDriver, input: NewDevice): DeviceRecord {
    const capabilities = input.capabilities ?? driver.driver.capabilities;
    for (const id of capabilities)
      if (!capabilityDefinition(id, this.own(driver.app.id)))
        throw invalidParameter('device.capabilities', `Unknown capability ${id}`);
    const zone = input.zone ?? this.defaultZone();
    if (input.zone !== undefined && !this.zones.get(input.zone))
      throw invalidParameter('device.zone', `No zone with id ${input.zone}`);
    const settings = { ...defaultSettings(driver.driver), ...(input.settings ?? {}) };
    const capabilitiesOptions = { ...(driver.driver.capabilitiesOptions ?? {}), ...(input.capabilitiesOptions ?? {}) };
    const id = randomUUID();
    const now = this.context.clock.now();
    const { db } = this.context;
    transact(db, () => {
      db.prepare(
        `INSERT INTO device (id, driver_id, app_id, name, zone, data, store, settings, class, icon_override, capabilities,
         capabilities_options, energy, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        driver.id,
        driver.app.id,
        input.name,
        zone,
        JSON.stringify(input.data),
        JSON.stringify(input.store ?? {}),
        JSON.stringify(settings),
        input.class ?? driver.driver.class,
        input.iconOverride ?? null,
        JSON.stringify(capabilities),
        JSON.stringify(capabilitiesOptions),
        input.energy || driver.driver.energy
          ? JSON.stringify({ ...(driver.driver.energy ?? {}), ...(input.energy ?? {}) })
          : null,
        new Date(now).toISOString(),
      );
      const insert = db.prepare(
        'INSERT INTO device_capability (device_id, capability_id, value, last_updated) VALUES (?, ?, ?, ?)',
      );
      for (const capability of capabilities) {
        const value = initialValue(capability);
        insert.run(id, capability, value === null ? null : JSON.stringify(value), value === null ? null : now);
      }
    });
    const device = this.require(id);
    this.context.bus.emit('device.added', { deviceId: device.id, appId: device.appId, zoneId: device.zone });
    return device;
  }

  /** Updates the updatable fields; a non-updatable field with a different value is a 400 naming it. */
  update(id: string, patch: Record<string, unknown>): DeviceRecord {
    const device = this.require(id);
    const current = this.view(device);
    for (const field of NOT_UPDATABLE) {
      if (field in patch && JSON.stringify(patch[field]) !== JSON.stringify(current[field])) {
        throw invalidParameter(`device.${field}`, 'This field is not updatable');
      }
    }
    const sets: string[] = [];
    const args: unknown[] = [];
    const text = (field: string, column: string, nullable: boolean, max: number) => {
      if (!(field in patch)) return;
      const value = patch[field];
      if (value === null && nullable) {
        sets.push(`${column} = NULL`);
        return;
      }
      if (typeof value !== 'string') throw invalidParameter(`device.${field}`, `Expected a string${nullable ? ' or null' : ''}`);
      if (value.length > max) throw invalidParameter(`device.${field}`, `At most ${max} characters`);
      if (field === 'name' && !value.trim()) throw invalidParameter('device.name', 'Must not be empty');
      if (field === 'zone' && !this.zones.get(value)) throw invalidParameter('device.zone', `No zone with id ${value}`);
      sets.push(`${column} = ?`);
      args.push(field === 'name' ? value.trim() : value);
    };
    text('name', 'name', false, 255);
    text('note', 'note', false, 4096);
    text('zone', 'zone', false, 100);
    text('iconOverride', 'icon_override', true, 255);
    text('virtualClass', 'virtual_class', true, 100);
    text('uiIndicator', 'ui_indicator', true, 100);
    if ('uiIndicator' in patch && typeof patch.uiIndicator === 'string' && !device.capabilities.includes(patch.uiIndicator)) {
      throw invalidParameter('device.uiIndicator', `The device has no capability ${patch.uiIndicator}`);
    }
    if ('hidden' in patch) {
      if (typeof patch.hidden !== 'boolean') throw invalidParameter('device.hidden', 'Expected a boolean');
      sets.push('hidden = ?');
      args.push(patch.hidden ? 1 : 0);
    }
    if (sets.length > 0) this.sql(`UPDATE device SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
    this.forget(id);
    this.updated(
      id,
      Object.keys(patch).filter((field) => JSON.stringify(patch[field]) !== JSON.stringify(current[field])),
    );
    return this.require(id);
  }

  /** Told of every device deleted, with its record (an app with code hears of its device's deletion). */
  readonly deleted = new Set<(device: DeviceRecord) => void>();

  delete(id: string): void {
    const device = this.require(id);
    this.sql('DELETE FROM device WHERE id = ?').run(id);
    this.forget(id);
    for (const listener of this.deleted) listener(device);
    this.context.bus.emit('device.removed', { deviceId: device.id, appId: device.appId, zoneId: device.zone });
    // A deleted device leaves its groups; a group left empty goes too. The rest still share its capabilities.
    for (const group of this.list()) {
      const members = groupMembers(group);
      if (!members?.includes(id)) continue;
      const rest = members.filter((member) => member !== id);
      if (rest.length === 0) {
        this.delete(group.id);
        continue;
      }
      this.sql('UPDATE device SET data = ? WHERE id = ?').run(JSON.stringify({ ...group.data, groupDevices: rest }), group.id);
      this.forget(group.id);
      this.updated(group.id, ['data']);
    }
  }

  /** Checks settings against the driver's declarations: a 400 naming the first one that does not fit. */
  checkSettings(id: string, settings: Record<string, unknown>): DeviceRecord {
    const device = this.require(id);
    const declared = new Map((this.driverOf(device)?.driver.settings ?? []).map((s) => [s.id, s]));
    for (const [key, value] of Object.entries(settings)) {
      const setting = declared.get(key);
      if (!setting || setting.type === 'label' || setting.type === 'group')
        throw invalidParameter(`settings.${key}`, 'Unknown setting');
      checkSetting(key, setting, value);
    }
    return device;
  }

  /** Checks settings against the driver's declarations and stores them. */
  setSettings(id: string, settings: Record<string, unknown>): Record<string, unknown> {
    const device = this.checkSettings(id, settings);
    const next = { ...device.settings, ...settings };
    this.sql('UPDATE device SET settings = ? WHERE id = ?').run(JSON.stringify(next), id);
    this.forget(id);
    this.updated(id, ['settings']);
    return next;
  }

  settingsObj(id: string): Record<string, unknown>[] {
    const device = this.require(id);
    const language = this.context.config.language;
    return (this.driverOf(device)?.driver.settings ?? []).map((setting) => ({
      ...setting,
      label: translate(setting.label, language),
      ...(setting.hint ? { hint: translate(setting.hint, language) } : {}),
      ...(setting.values ? { values: setting.values.map((v) => ({ id: v.id, label: translate(v.label, language) })) } : {}),
      value: device.settings[setting.id] ?? setting.value ?? null,
    }));
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
    const device = this.require(deviceId);
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
  reportCapabilityValue(
    deviceId: string,
    capabilityId: string,
    value: unknown,
    options: { source: ChangeSource; react?: boolean; transactionId?: string },
  ): CapabilityValue {
    const device = this.require(deviceId);
    const checked = validateCapabilityValue(this.capabilityOf(device, capabilityId), value);
    this.confirmCapabilityValue(device, capabilityId, checked, options);
    return checked;
  }

  /**
   * Stores a value the device's driver confirmed (or reported), with the simulated device's reactions when asked
   * (a socket turned on draws power), and announces each change.
   */
  confirmCapabilityValue(
    device: DeviceRecord,
    capabilityId: string,
    value: CapabilityValue,
    options: { source: ChangeSource; react?: boolean; transactionId?: string },
  ): void {
    const reactions = options.react ? this.#reactions(device, capabilityId, value) : {};
    this.write(device, { [capabilityId]: value, ...reactions }, options.source, options.transactionId);
  }

  /** What a simulated device does by itself when one of its values is set (a socket turned on draws power). */
  #reactions(device: DeviceRecord, capabilityId: string, value: CapabilityValue) {
    const current = Object.fromEntries([...this.values(device.id)].map(([k, v]) => [k, v.value]));
    const kind = this.driverOf(device)?.driver.simulation ?? 'none';
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
    const stored = this.#values.get(device.id);
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
    for (const device of this.list()) {
      const kind = this.driverOf(device)?.driver.simulation ?? 'none';
      // Devices of apps with code are the app's to move; the hub simulates only manifest-only apps' devices.
      if (kind === 'none' || !this.apps.isRunning(device.appId) || this.apps.processHost(device.appId)) continue;
      const values = Object.fromEntries([...this.values(device.id)].map(([k, v]) => [k, v.value]));
      const sim: SimulatedDevice = { kind, values, settings: device.settings, capabilities: device.capabilities };
      const changes = tick(sim, elapsed);
      if (Object.keys(changes).length > 0) this.write(device, changes, SIMULATION);
    }
  }

  /**
   * Announces that a device's record was written (or its availability changed) on the domain bus: flows, zones
   * and the cards follow it, and clients get the device's new view.
   */
  updated(id: string, changed: readonly string[]): void {
    this.context.bus.emit('device.updated', { deviceId: id, changed });
  }

  /**
   * Changes the record as the device's app asks (`this.setStoreValue`, `addCapability`, `setUnavailable`, …):
   * the app owns these fields, so only the given ones change; capabilities added start without a value.
   */
  updateFromApp(
    id: string,
    patch: Partial<
      Pick<
        DeviceRecord,
        'store' | 'settings' | 'class' | 'capabilities' | 'capabilitiesOptions' | 'energy' | 'unavailableMessage' | 'warning'
      >
    >,
  ): DeviceRecord {
    const device = this.require(id);
    const columns: [string, unknown][] = [];
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    if (patch.store !== undefined) columns.push(['store', json(patch.store)]);
    if (patch.settings !== undefined) columns.push(['settings', json(patch.settings)]);
    if (patch.class !== undefined) columns.push(['class', patch.class]);
    if (patch.capabilities !== undefined) columns.push(['capabilities', json(patch.capabilities)]);
    if (patch.capabilitiesOptions !== undefined) columns.push(['capabilities_options', json(patch.capabilitiesOptions)]);
    if (patch.energy !== undefined) columns.push(['energy', json(patch.energy)]);
    if (patch.unavailableMessage !== undefined) columns.push(['unavailable_message', patch.unavailableMessage]);
    if (patch.warning !== undefined) columns.push(['warning', patch.warning]);
    if (columns.length === 0) return device;
    transact(this.context.db, () => {
      this.context.db
        .prepare(`UPDATE device SET ${columns.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`)
        .run(...columns.map(([, value]) => value), id);
      if (patch.capabilities) {
        const added = patch.capabilities.filter((c) => !device.capabilities.includes(c));
        const removed = device.capabilities.filter((c) => !patch.capabilities?.includes(c));
        const insert = this.sql(
          'INSERT OR IGNORE INTO device_capability (device_id, capability_id, value, last_updated) VALUES (?, ?, NULL, NULL)',
        );
        for (const capabilityId of added) insert.run(id, capabilityId);
        const remove = this.sql('DELETE FROM device_capability WHERE device_id = ? AND capability_id = ?');
        for (const capabilityId of removed) remove.run(id, capabilityId);
      }
    });
    this.forget(id);
    this.updated(id, Object.keys(patch));
    return this.require(id);
  }

  /** The device as clients see it: every Device field of the seed. */
  view(device: DeviceRecord): DeviceItem {
    const resolved = this.driverOf(device);
    const driver = resolved?.driver;
    const app = resolved?.app;
    const running = this.apps.isRunning(device.appId);
    const values = this.values(device.id);
    const own = this.own(device.appId);
    const language = this.context.config.language;
    const capabilitiesObj: DeviceItem['capabilitiesObj'] = {};
    const insights: Record<string, unknown>[] = [];
    for (const capabilityId of device.capabilities) {
      const definition = effectiveCapability(capabilityId, device.capabilitiesOptions[capabilityId], own);
      const stored = values.get(capabilityId);
      const { uiComponent: _ui, ...rest } = definition;
      capabilitiesObj[capabilityId] = {
        ...rest,
        value: definition.getable ? (stored?.value ?? null) : null,
        lastUpdated: stored?.lastUpdated ? new Date(stored.lastUpdated).toISOString() : null,
        options: device.capabilitiesOptions[capabilityId] ?? {},
        iconObj: null,
      };
      if (definition.getable && (definition.type === 'number' || definition.type === 'boolean')) {
        insights.push({
          uri: `homey:device:${device.id}`,
          id: capabilityId,
          title: definition.title,
          titleTrue: definition.titleTrue ?? null,
          titleFalse: definition.titleFalse ?? null,
          units: definition.units ?? null,
          decimals: definition.decimals ?? null,
        });
      }
    }
    const icon = device.iconOverride
      ? `/icons/${device.iconOverride}.svg`
      : `/app/${device.appId}/drivers/${driver?.id ?? 'unknown'}/assets/icon.svg`;
    const energy = device.energy;
    const camera = device.class === 'camera';
    return {
      id: device.id,
      name: device.name,
      note: device.note,
      zone: device.zone,
      driverUri: `homey:app:${device.appId}`,
      driverId: device.driverId,
      ownerUri: `homey:app:${device.appId}`,
      data: device.data,
      icon,
      iconObj: { id: `${device.driverId}:icon`, url: icon },
      iconOverride: device.iconOverride,
      settings: device.settings,
      settingsObj: (driver?.settings ?? []).length > 0,
      class: device.class,
      virtualClass: device.virtualClass,
      energy,
      energyObj: energy,
      ui: uiOf(device.capabilities, device.capabilitiesOptions, own),
      uiIndicator: device.uiIndicator,
      capabilities: [...device.capabilities],
      capabilitiesObj,
      capabilitiesOptions: device.capabilitiesOptions,
      flags: device.hidden ? ['hidden'] : [],
      hidden: device.hidden,
      ready: running,
      available: running && device.unavailableMessage === null,
      repair: (driver?.repair ?? []).length > 0,
      unpair: (driver?.unpair ?? []).length > 0,
      unavailableMessage: running
        ? device.unavailableMessage
        : `${app ? translate(app.manifest.name, language) : device.appId} is not running`,
      warning: device.warning,
      images: camera
        ? [
            {
              type: 'camera',
              id: 'snapshot',
              imageObj: {
                id: `${device.id}-snapshot`,
                ownerUri: `homey:device:${device.id}`,
                url: `/api/image/${device.id}-snapshot`,
                lastUpdated: device.createdAt,
              },
            },
            ...this.appImages(device.id),
          ]
        : [...this.appImages(device.id)],
      insights,
      color: app?.manifest.brandColor ?? null,
      connectivity: driver?.connectivity ?? [],
      createdAt: device.createdAt,
    };
  }
}

function defaultSettings(driver: DriverManifest): Record<string, unknown> {
  return Object.fromEntries((driver.settings ?? []).filter((s) => s.value !== undefined).map((s) => [s.id, s.value]));
}

function checkSetting(key: string, setting: NonNullable<DriverManifest['settings']>[number], value: unknown): void {
  const problem = settingProblem(setting, value);
  if (problem) throw invalidParameter(`settings.${key}`, problem);
}

function uiOf(capabilities: readonly string[], options: Record<string, CapabilityOptions>, own: AppCapabilities) {
  const groups = new Map<string, string[]>();
  for (const id of capabilities) {
    const component = effectiveCapability(id, options[id], own).uiComponent ?? 'sensor';
    groups.set(component, [...(groups.get(component) ?? []), id]);
  }
  const components = uiComponentOrder
    .filter((c) => groups.has(c))
    .map((c) => ({ id: c, capabilities: groups.get(c) as string[] }));
  const quickAction = capabilities.includes('onoff')
    ? 'onoff'
    : capabilities.find((c) => capabilityDefinition(c, own)?.uiComponent === 'button');
  return { quickAction: quickAction ?? null, components };
}
