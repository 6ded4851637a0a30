import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { transact } from '../../store/database';
import type { AppService } from '../apps/service';
import { type DeviceRecord, type DeviceService, groupMembers } from './service';

/** The built-in driver group devices belong to. */
export const GROUP_DRIVER_ID = 'homey:app:com.hearth.virtual:group';

interface Membership {
  ids: string[];
  deviceClass: string;
  capabilities: string[];
  capabilitiesOptions: DeviceRecord['capabilitiesOptions'];
  first: DeviceRecord;
}

/**
 * Device groups: a group is a device of the built-in group driver standing for devices of one class, with the
 * capabilities they all have. Setting one of its capabilities sets it on each member (DeviceService does that).
 */
export class DeviceGroups {
  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
    private readonly apps: AppService,
  ) {}

  /** Checks the members: they exist, are no groups, are of one class, and share at least one capability. */
  private membership(ids: readonly string[], deviceClass?: string): Membership {
    const records = ids.map((id, index) => {
      const device = this.devices.find(id);
      if (!device) throw invalidParameter(`group.devices.${index}`, `No device with id ${id}`);
      if (groupMembers(device)) throw invalidParameter(`group.devices.${index}`, 'A group cannot hold another group');
      return device;
    });
    const first = records[0] as DeviceRecord;
    const expected = deviceClass ?? first.class;
    const other = records.find((device) => device.class !== expected);
    if (other) {
      throw invalidParameter(
        'group.devices',
        `The devices of a group are of one class: ${other.name} is a ${other.class}, not a ${expected}`,
      );
    }
    const capabilities = first.capabilities.filter((capability) => records.every((d) => d.capabilities.includes(capability)));
    if (capabilities.length === 0) throw invalidParameter('group.devices', 'The devices share no capability');
    const capabilitiesOptions = Object.fromEntries(
      capabilities.filter((c) => first.capabilitiesOptions[c]).map((c) => [c, first.capabilitiesOptions[c]]),
    ) as DeviceRecord['capabilitiesOptions'];
    return { ids: [...ids], deviceClass: expected, capabilities, capabilitiesOptions, first };
  }

  /** Stores the members and capabilities of a group; a capability it gains starts at its first member's value. */
  private setMembership(group: DeviceRecord, membership: Membership): void {
    const { db } = this.context;
    const values = this.devices.values(membership.first.id);
    transact(db, () => {
      db.prepare('UPDATE device SET data = ?, capabilities = ?, capabilities_options = ? WHERE id = ?').run(
        JSON.stringify({ ...group.data, groupDevices: membership.ids }),
        JSON.stringify(membership.capabilities),
        JSON.stringify(membership.capabilitiesOptions),
        group.id,
      );
      db.prepare(
        `DELETE FROM device_capability WHERE device_id = ? AND capability_id NOT IN (SELECT value FROM json_each(?))`,
      ).run(group.id, JSON.stringify(membership.capabilities));
      const insert = db.prepare(
        'INSERT OR IGNORE INTO device_capability (device_id, capability_id, value, last_updated) VALUES (?, ?, ?, ?)',
      );
      for (const capability of membership.capabilities) {
        const value = values.get(capability);
        insert.run(group.id, capability, value?.value == null ? null : JSON.stringify(value.value), value?.lastUpdated ?? null);
      }
    });
    this.devices.forget(group.id);
    this.devices.updated(group.id, ['data', 'capabilities', 'capabilitiesOptions']);
  }

  private requireGroup(id: string): DeviceRecord {
    const group = this.devices.find(id);
    if (!group || !groupMembers(group)) throw notFound('Group', id);
    return group;
  }

  create(input: { name: string; devices: string[]; class?: string; zone?: string }): DeviceRecord {
    const driver = this.apps.findDriver(GROUP_DRIVER_ID);
    if (!driver) throw new HearthError('unavailable', 'The built-in group driver is not installed');
    const membership = this.membership(input.devices, input.class);
    const group = this.devices.create(driver, {
      name: input.name.trim() || 'Group',
      data: { groupDevices: membership.ids },
      ...(input.zone !== undefined ? { zone: input.zone } : {}),
      class: membership.deviceClass,
      capabilities: membership.capabilities,
      capabilitiesOptions: membership.capabilitiesOptions,
    });
    this.setMembership(group, membership);
    return this.devices.require(group.id);
  }

  update(id: string, input: { name?: string; devices?: string[]; zone?: string }): DeviceRecord {
    const group = this.requireGroup(id);
    if (input.devices) this.setMembership(group, this.membership(input.devices, group.class));
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.zone !== undefined ? { zone: input.zone } : {}),
    };
    if (Object.keys(patch).length > 0) this.devices.update(id, patch);
    return this.devices.require(id);
  }

  removeDevice(groupId: string, deviceId: string): DeviceRecord {
    const group = this.requireGroup(groupId);
    const members = groupMembers(group) ?? [];
    if (!members.includes(deviceId)) throw notFound('Device in group', deviceId);
    if (members.length === 1) {
      throw new HearthError('conflict', 'A group keeps at least one device; delete the group instead');
    }
    this.setMembership(
      group,
      this.membership(
        members.filter((member) => member !== deviceId),
        group.class,
      ),
    );
    return this.devices.require(groupId);
  }
}
