import type { DeviceItem } from '@hearth/contract';
import type { HubContext } from '../platform/context';
import type { HubServices } from '../runtime/services';

const DEVICE_SCOPE = 'homey.device.readonly';
const ZONE_SCOPE = 'homey.zone.readonly';
const LOGIC_SCOPE = 'homey.logic.readonly';
const PRESENCE_SCOPE = 'homey.presence.readonly';

/**
 * The one place where what happens inside the hub (the domain bus, `core/bus.ts`) becomes what clients see (the
 * wire events `packages/contract` declares): a capability value, a device added, changed or removed, a zone
 * becoming active, someone coming home or going to sleep, an app's setting, a webhook call. Entity changes made by a manager's own
 * operations (a zone renamed, an alarm created) are published by that manager through the same typed publisher.
 *
 * Registered before the managers start, so a change reaches sockets before the parts it sets off (flows,
 * insights) publish theirs. Answers the undo.
 */
export function publishDomainEvents(context: HubContext, services: Pick<HubServices, 'devices' | 'zones'>): () => void {
  const { bus, events, users } = context;
  const { devices, zones } = services;
  const owner = 'realtime';

  /** Devices whose `device.update` goes out at the end of this turn. */
  const updating = new Set<string>();
  /**
   * Publishes the device as clients see it (`device.update` and `update` on its own URI), once per turn however
   * many of its values changed in it: a flow setting several capabilities of one device sends one update, with all
   * of them. The view is made only if a socket reads it.
   */
  const deviceUpdate = (id: string) => {
    if (updating.has(id)) return;
    updating.add(id);
    queueMicrotask(() => {
      updating.delete(id);
      if (!context.db.open) return;
      const device = devices.find(id);
      if (!device) return;
      let view: DeviceItem | undefined;
      const made = () => {
        view ??= devices.view(device);
        return view;
      };
      events.managerLazy('devices', 'device.update', made, DEVICE_SCOPE);
      events.itemLazy('devices', 'device', id, 'update', made, DEVICE_SCOPE);
    });
  };

  const presence = (userId: string, changed: 'present' | 'asleep', forced: boolean) => {
    const user = users.get(userId);
    if (!user) return;
    events.manager(
      'presence',
      'presence.update',
      { id: userId, present: user.present, asleep: user.asleep, changed, forced },
      PRESENCE_SCOPE,
    );
  };

  bus.on('device.capability', owner, (change) => {
    events.item(
      'devices',
      'device',
      change.deviceId,
      'capability',
      {
        capabilityId: change.capabilityId,
        value: change.value,
        // Only the value the caller set carries the caller's transactionId; the device's reactions have their own.
        transactionId: change.transactionId ?? '',
        transactionTime: change.at,
      },
      DEVICE_SCOPE,
    );
    deviceUpdate(change.deviceId);
  });
  bus.on('device.added', owner, ({ deviceId }) => {
    const device = devices.find(deviceId);
    if (device) events.entity('devices', 'device', 'create', devices.view(device), DEVICE_SCOPE);
  });
  bus.on('device.updated', owner, ({ deviceId }) => deviceUpdate(deviceId));
  bus.on('device.removed', owner, ({ deviceId }) => {
    events.entity('devices', 'device', 'delete', { id: deviceId }, DEVICE_SCOPE);
    events.item('devices', 'device', deviceId, 'delete', { id: deviceId }, DEVICE_SCOPE);
  });
  bus.on('zone.active', owner, ({ zoneId }) => {
    const zone = zones.get(zoneId);
    if (zone) events.entity('zones', 'zone', 'update', zone, ZONE_SCOPE);
  });
  bus.on('presence.changed', owner, ({ userId, forced }) => presence(userId, 'present', forced));
  bus.on('user.asleep', owner, ({ userId, forced }) => presence(userId, 'asleep', forced));
  bus.on('app.setting', owner, ({ appId, name, value, removed }) => {
    if (removed) events.item('apps', 'app', appId, 'setting.unset', { name }, 'homey.app.control');
    else events.item('apps', 'app', appId, 'setting.set', { name, value }, 'homey.app.control');
  });
  bus.on('webhook.received', owner, ({ id, event, tag, receivedAt }) =>
    events.manager('logic', 'webhook', { id, event, tag, receivedAt }, LOGIC_SCOPE),
  );
  return () => bus.off(owner);
}
