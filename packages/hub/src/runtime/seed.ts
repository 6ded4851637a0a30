import { hubModels } from '../config';
import type { DeviceRecord } from '../managers/devices/service';
import type { HubContext } from '../platform/context';
import { capabilityDefinition } from './capabilities';
import type { HubServices } from './services';

const SEEDED_KEY = 'demo.seeded';

export interface SeedOptions {
  /** Days of insights history to write (default 14). */
  historyDays?: number;
  /** Minutes between history points (default 15). */
  historyStepMinutes?: number;
}

export interface SeedSummary {
  seeded: boolean;
  zones: number;
  apps: string[];
  devices: number;
  entries: number;
}

interface DemoDevice {
  driver: string;
  name: string;
  zone: string;
  /** Radios a cloud hub does not have: such devices are left out there. */
  radio?: boolean;
  values?: Record<string, string | number | boolean>;
}

/**
 * Demo apps installed from the catalogue. Lumen & Co stays at its packaged 3.2.1, a version behind the
 * catalogue's live 3.3.0, with automatic updates off, so the hub (and the support form) shows an update.
 */
const DEMO_APPS = [
  'com.lumenco.lights',
  'com.nordheat.climate',
  'com.openweather.station',
  'com.soundwave.speakers',
  'net.tinker.blinds',
  'com.guardian.security',
  'com.wattwise.meter',
  'com.flakyhome.sensors',
  'com.hearth.chime',
];
const OUT_OF_DATE_APP = 'com.lumenco.lights';

const V = 'homey:app:com.hearth.virtual';
const DEMO_DEVICES: DemoDevice[] = [
  { driver: `${V}:virtualsocket`, name: 'Coffee machine', zone: 'Kitchen', values: { onoff: true } },
  { driver: `${V}:socket`, name: 'Desk lamp', zone: 'Office' },
  { driver: `${V}:virtualbutton`, name: 'Doorbell', zone: 'Hallway' },
  { driver: `${V}:virtualipcamera`, name: 'Front door camera', zone: 'Hallway' },
  { driver: `${V}:zwave`, name: 'Washing machine', zone: 'Bathroom', radio: true },
  { driver: `${V}:zigbee`, name: 'Hallway light', zone: 'Hallway', radio: true, values: { onoff: true, dim: 0.6 } },
  { driver: `${V}:infrared`, name: 'Living room TV', zone: 'Living room', radio: true },
  { driver: `${V}:bridge`, name: 'Garden shutters', zone: 'Garden', radio: true },
  {
    driver: `${V}:matter`,
    name: 'Living room thermostat',
    zone: 'Living room',
    radio: true,
    values: { target_temperature: 21.5 },
  },
  {
    driver: 'homey:app:com.lumenco.lights:bulb-e27',
    name: 'Sofa lamp',
    zone: 'Living room',
    radio: true,
    values: { onoff: true, dim: 0.4 },
  },
  { driver: 'homey:app:com.lumenco.lights:light-static-strip', name: 'Kitchen strip', zone: 'Kitchen', radio: true },
  {
    driver: 'homey:app:com.nordheat.climate:thermostat',
    name: 'Bathroom floor',
    zone: 'Bathroom',
    radio: true,
    values: { target_temperature: 24 },
  },
  { driver: 'homey:app:com.openweather.station:station', name: 'Weather station', zone: 'Garden' },
  { driver: 'homey:app:com.soundwave.speakers:speaker', name: 'Kitchen speaker', zone: 'Kitchen' },
  { driver: 'homey:app:net.tinker.blinds:blinds', name: 'Bedroom blinds', zone: 'Bedroom', radio: true },
  { driver: 'homey:app:com.guardian.security:motion-sensor', name: 'Hallway motion', zone: 'Hallway', radio: true },
  { driver: 'homey:app:com.guardian.security:door-sensor', name: 'Front door', zone: 'Hallway', radio: true },
  {
    driver: 'homey:app:com.wattwise.meter:p1',
    name: 'Smart meter',
    zone: 'Home',
    values: { measure_power: 640, meter_power: 8123.4 },
  },
  { driver: 'homey:app:com.flakyhome.sensors:air', name: 'Office air quality', zone: 'Office' },
  { driver: 'homey:app:com.hearth.chime:chime', name: 'Front door chime', zone: 'Hallway' },
];

const ZONES: [name: string, parent: string, icon: string][] = [
  ['Ground floor', 'Home', 'groundFloor'],
  ['Living room', 'Ground floor', 'livingroom'],
  ['Kitchen', 'Ground floor', 'kitchen'],
  ['Hallway', 'Ground floor', 'hallway'],
  ['First floor', 'Home', 'firstFloor'],
  ['Bedroom', 'First floor', 'bedroom'],
  ['Bathroom', 'First floor', 'bathroom'],
  ['Office', 'First floor', 'office'],
  ['Garden', 'Home', 'garden'],
];

/** A plausible value of a numeric capability at time `t`: daily rhythms plus a little noise. */
function historicValue(capabilityId: string, t: number, seed: number): number {
  const hour = new Date(t).getHours() + new Date(t).getMinutes() / 60;
  const day = Math.sin(((hour - 6) / 24) * 2 * Math.PI);
  const noise = Math.sin(t / 3_700_000 + seed) * 0.5 + Math.sin(t / 911_000 + seed * 3) * 0.5;
  switch (capabilityId.split('.')[0]) {
    case 'measure_temperature':
      return 19.5 + day * 2 + noise * 0.4;
    case 'target_temperature':
      return hour >= 7 && hour < 23 ? 21.5 : 18;
    case 'measure_humidity':
      return Math.round(50 - day * 10 + noise * 3);
    case 'measure_luminance':
      return Math.max(0, Math.round(day * 800 + noise * 50));
    case 'measure_co2':
      return Math.round(520 + Math.max(0, -day) * 300 + noise * 40);
    case 'measure_battery':
      return 100;
    case 'measure_power':
      return Math.max(0, Number((60 + day * 40 + noise * 20).toFixed(1)));
    case 'dim':
    case 'volume_set':
    case 'windowcoverings_set':
      return Number((0.5 + day * 0.3).toFixed(2));
    default:
      return Number((50 + noise * 10).toFixed(2));
  }
}

/**
 * Populates a demo hub: zones, the demo apps (one out of date, one that crashes), devices of every virtual
 * driver and demo app in those zones, and insights history. Runs once per hub (it records that it ran);
 * a cloud hub gets no radio devices. Call it after `startHub`: `seedDemoHub(hub)`.
 */
export function seedDemoHub(
  hub: { readonly context: HubContext; readonly services: HubServices },
  options: SeedOptions = {},
): SeedSummary {
  const { context, services: runtime } = hub;
  if (context.settings.get(SEEDED_KEY, false)) {
    return { seeded: false, zones: 0, apps: [], devices: runtime.devices.list().length, entries: 0 };
  }
  const { zones } = runtime;
  const root = zones.root() ?? zones.create({ name: 'Home', icon: 'home', parent: null, order: 0 });
  const zoneIds = new Map<string, string>([['Home', root.id]]);
  for (const zone of zones.list()) zoneIds.set(zone.name, zone.id);
  let createdZones = 0;
  for (const [name, parent, icon] of ZONES) {
    if (zoneIds.has(name)) continue;
    const parentId = zoneIds.get(parent) ?? root.id;
    const created = zones.create({ name, icon, parent: parentId, order: zones.nextOrder(parentId) });
    context.events.entity('zones', 'zone', 'create', created, 'homey.zone.readonly');
    zoneIds.set(name, created.id);
    createdZones += 1;
  }

  const apps: string[] = [];
  for (const id of DEMO_APPS) {
    if (runtime.apps.find(id)) continue;
    const pkg = runtime.apps.catalogue().find((p) => p.manifest.id === id);
    if (!pkg) continue;
    runtime.apps.install(pkg, 'appstore', 'stable');
    if (id === OUT_OF_DATE_APP) runtime.apps.setAutoupdate(id, false);
    apps.push(id);
  }

  const cloudHub = hubModels[context.config.model].platform === 'cloud';
  const devices: DeviceRecord[] = [];
  for (const demo of DEMO_DEVICES) {
    if (cloudHub && demo.radio) continue;
    const driver = runtime.apps.findDriver(demo.driver);
    if (!driver) continue;
    const device = runtime.devices.create(driver, {
      name: demo.name,
      data: { id: `demo-${demo.driver.split(':').pop()}-${devices.length + 1}` },
      zone: zoneIds.get(demo.zone) ?? root.id,
    });
    devices.push(device);
  }

  // History first, so that the current values below are the latest entries.
  const days = options.historyDays ?? 14;
  const step = (options.historyStepMinutes ?? 15) * 60_000;
  const now = hub.context.clock.now();
  let entries = 0;
  devices.forEach((device, index) => {
    for (const capabilityId of device.capabilities) {
      const definition = capabilityDefinition(capabilityId);
      if (!definition?.getable || (definition.type !== 'number' && definition.type !== 'boolean')) continue;
      const points: { t: number; v: number | boolean }[] = [];
      let meter = 100 + index * 37;
      for (let t = now - days * 86_400_000; t < now - step; t += step) {
        if (definition.type === 'boolean') {
          // Mostly off, on for a while in the evening, with a few short events (motion, doors).
          const hour = new Date(t).getHours();
          const on = capabilityId.startsWith('alarm_') ? Math.sin(t / 1_300_000 + index) > 0.93 : hour >= 18 && hour < 23;
          points.push({ t, v: on });
        } else if (capabilityId === 'meter_power') {
          meter += (historicValue('measure_power', t, index) * step) / 3_600_000 / 1000;
          points.push({ t, v: Number(meter.toFixed(3)) });
        } else {
          points.push({ t, v: historicValue(capabilityId, t, index) });
        }
      }
      entries += runtime.insights.appendHistory(`homey:device:${device.id}`, capabilityId, points);
    }
  });

  for (const [index, demo] of DEMO_DEVICES.filter((d) => !(cloudHub && d.radio)).entries()) {
    const device = devices[index];
    if (!device) continue;
    for (const [capabilityId, value] of Object.entries(demo.values ?? {})) {
      try {
        runtime.devices.reportCapabilityValue(device.id, capabilityId, value, { source: { kind: 'system' }, react: true });
      } catch {
        // A demo value the capability refuses is simply left out.
      }
    }
  }

  // Apps with code hear of their devices as of paired ones, with the values above (each runs its own model).
  for (const device of devices)
    void runtime.processes
      .announce(device.id)
      .catch((error) => context.journal.log(`warn demo: announcing ${device.id} to its app failed: ${(error as Error).message}`));

  context.settings.set(SEEDED_KEY, true);
  // Learn from the cloud's catalogue (when there is one) which of the new apps have updates.
  void runtime.apps.refreshFromAppStore();
  return { seeded: true, zones: createdZones, apps, devices: devices.length, entries };
}
