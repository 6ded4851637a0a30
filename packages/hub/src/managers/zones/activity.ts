import type { DomainBus } from '../../core/bus';
import type { Clock } from '../../core/clock';
import type { DeviceService } from '../devices/service';
import type { ZoneStore } from './store';

/** Sensors whose `true` means someone or something is active where they are. */
const ACTIVITY_CAPABILITIES = new Set(['alarm_motion', 'alarm_contact', 'alarm_presence', 'alarm_occupancy']);

/**
 * Keeps each zone's `active` flag: a zone is active while any activity sensor of a device in it reports `true`.
 * A change is stored and announced as `zone.active` on the domain bus (flows with a "zone becomes active" trigger
 * start from it; clients see it as `zone.update`). Answers the undo.
 */
export function trackZoneActivity(bus: DomainBus, clock: Clock, zones: ZoneStore, devices: DeviceService): () => void {
  const activeNow = (zoneId: string) =>
    devices
      .list()
      .filter((device) => device.zone === zoneId)
      .some((device) => {
        const values = devices.values(device.id);
        return [...ACTIVITY_CAPABILITIES].some((id) => values.get(id)?.value === true);
      });
  const refresh = (zoneId: string) => {
    const zone = zones.get(zoneId);
    if (!zone) return;
    const active = activeNow(zoneId);
    if (zone.active === active) return;
    zones.setActive(zoneId, active, clock.now());
    bus.emit('zone.active', { zoneId, active });
  };
  const stops = [
    bus.on('device.capability', 'zones', ({ deviceId, capabilityId }) => {
      if (!ACTIVITY_CAPABILITIES.has(capabilityId)) return;
      const device = devices.find(deviceId);
      if (device) refresh(device.zone);
    }),
    bus.on('device.removed', 'zones', ({ zoneId }) => refresh(zoneId)),
    bus.on('device.updated', 'zones', ({ deviceId, changed }) => {
      // A sensor that moved may leave one zone inactive and make another active.
      if (changed.includes('zone') && devices.find(deviceId)) for (const zone of zones.list()) refresh(zone.id);
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
