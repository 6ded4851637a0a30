import { randomUUID } from 'node:crypto';
import { type DeviceItem, invalidParameter, notFound } from '@hearth/contract';
import { settingProblem } from '@hearth/contract/device-settings';
import type { Statement } from 'better-sqlite3';
import type { HubContext } from '../../platform/context';
import { type AppCapabilities, type CapabilityDefinition, capabilityDefinition } from '../../runtime/capabilities';
import { type DriverManifest, flatSettings, type SettingManifest, translate } from '../../runtime/manifest';
import { type CapabilityValue, initialValue } from '../../runtime/simulation';
import { transact } from '../../store/database';
import { Statements } from '../../store/statements';
import type { AppService, ResolvedDriver } from '../apps/service';
import type { ZoneStore } from '../zones/store';
import { CapabilityValues, type ValueWriteOptions } from './capability-values';
import { DeviceCache, type DeviceRecord, type DeviceRow, groupMembers, type NewDevice, toRecord } from './records';
import { deviceView } from './view';

export { type DeviceRecord, deviceMigrations, groupMembers, type NewDevice } from './records';

const NOT_UPDATABLE = ['driverUri', 'driverId', 'data', 'icon', 'iconObj', 'settings', 'class', 'energy', 'ui', 'capabilities'];
/** How often the simulated world moves (meters count, rooms warm up). */
export const SIMULATION_TICK_MS = 30_000;

/**
 * Devices: their records, settings and lifecycle. Their capability values and the simulation are
 * `capability-values.ts`, their view for clients `view.ts`; the methods here that answer for them hand over.
 */
export class DeviceService {
  /** Prepared statements, prepared once per service. */
  #statements: Statements | undefined;

  private sql(text: string): Statement {
    this.#statements ??= new Statements(this.context.db);
    return this.#statements.get(text);
  }

  readonly #capabilityValues: CapabilityValues;
  /** The images a device's app shows for it (camera stills, album art); the app runtime fills this in. */
  appImages: (deviceId: string) => readonly unknown[] = () => [];
  constructor(
    private readonly context: HubContext,
    private readonly apps: AppService,
    private readonly zones: ZoneStore,
  ) {
    this.#capabilityValues = new CapabilityValues(context, apps, this, (text) => this.sql(text));
    this.#records = new DeviceCache(context.db);
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
   * Device records, parsed once: every capability write and every flow reads them. A change made here forgets the
   * device's entry; a group of changes undone after it was made (the database's rollback epoch) forgets them all.
   */
  readonly #records: DeviceCache<DeviceRecord>;

  /** Forgets what is cached of a device: call after changing its rows other than through this service's writes. */
  forget(id: string): void {
    this.#records.forget(id);
    this.#capabilityValues.forget(id);
  }

  find(id: string): DeviceRecord | undefined {
    const cache = this.#records.fresh();
    const cached = cache.get(id);
    if (cached) return cached;
    const row = this.sql('SELECT * FROM device WHERE id = ?').get(id) as DeviceRow | undefined;
    if (!row) return undefined;
    const record = toRecord(row);
    cache.set(id, record);
    return record;
  }

  require(id: string): DeviceRecord {
    const device = this.find(id);
    if (!device) throw notFound('Device', id);
    return device;
  }

  /** The capability values of a device with the time each was last updated (epoch ms). */
  values(id: string): ReadonlyMap<string, { value: CapabilityValue; lastUpdated: number | null }> {
    return this.#capabilityValues.values(id);
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
        const value = input.unreported ? null : initialValue(capability);
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
    const declared = new Map(flatSettings(this.driverOf(device)?.driver.settings).map((s) => [s.id, s]));
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
    return flatSettings(this.driverOf(device)?.driver.settings).map((setting) => ({
      ...setting,
      label: translate(setting.label ?? setting.title, language),
      ...(setting.hint ? { hint: translate(setting.hint, language) } : {}),
      ...(setting.values
        ? { values: setting.values.map((v) => ({ id: v.id, label: translate(v.label ?? v.title, language) })) }
        : {}),
      value: device.settings[setting.id] ?? setting.value ?? null,
    }));
  }

  capabilityOf(device: DeviceRecord, capabilityId: string): CapabilityDefinition {
    return this.#capabilityValues.capabilityOf(device, capabilityId);
  }

  /** The capabilities app `appId` declares for its devices (none once it is uninstalled). */
  own(appId: string): AppCapabilities {
    return this.#capabilityValues.own(appId);
  }

  getCapabilityValue(deviceId: string, capabilityId: string): CapabilityValue {
    return this.#capabilityValues.getCapabilityValue(deviceId, capabilityId);
  }

  /** A value the device itself reported (see `CapabilityValues.reportCapabilityValue`). */
  reportCapabilityValue(deviceId: string, capabilityId: string, value: unknown, options: ValueWriteOptions): CapabilityValue {
    return this.#capabilityValues.reportCapabilityValue(deviceId, capabilityId, value, options);
  }

  /** A value the device's driver confirmed (see `CapabilityValues.confirmCapabilityValue`). */
  confirmCapabilityValue(device: DeviceRecord, capabilityId: string, value: CapabilityValue, options: ValueWriteOptions): void {
    this.#capabilityValues.confirmCapabilityValue(device, capabilityId, value, options);
  }

  /** One step of the simulated world for every device whose app runs. */
  simulate(now: number): void {
    this.#capabilityValues.simulate(now);
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
    return deviceView(device, this, this.apps.isRunning(device.appId), this.context.config.language);
  }
}

function defaultSettings(driver: DriverManifest): Record<string, unknown> {
  return Object.fromEntries(
    flatSettings(driver.settings)
      .filter((s) => s.value !== undefined)
      .map((s) => [s.id, s.value]),
  );
}

function checkSetting(key: string, setting: SettingManifest, value: unknown): void {
  const problem = settingProblem(setting, value);
  if (problem) throw invalidParameter(`settings.${key}`, problem);
}
