import type { DeviceItem } from '@hearth/contract';
import {
  type AppCapabilities,
  type CapabilityOptions,
  capabilityDefinition,
  effectiveCapability,
} from '../../runtime/capabilities';
import { capabilityText } from '../../runtime/ecosystem';
import { translate } from '../../runtime/manifest';
import type { CapabilityValue } from '../../runtime/simulation';
import type { ResolvedDriver } from '../apps/service';
import type { DeviceRecord } from './records';

const uiComponentOrder = ['toggle', 'slider', 'thermostat', 'color', 'picker', 'media', 'button', 'sensor'] as const;

/** What a device's view reads besides its record (the device service gives them). */
export interface DeviceViewSources {
  driverOf(device: DeviceRecord): ResolvedDriver | undefined;
  values(id: string): ReadonlyMap<string, { value: CapabilityValue; lastUpdated: number | null }>;
  own(appId: string): AppCapabilities;
  appImages(deviceId: string): readonly unknown[];
}

/** The device as clients see it: every Device field of the seed. `running`: whether the device's app runs. */
export function deviceView(device: DeviceRecord, from: DeviceViewSources, running: boolean, language: string): DeviceItem {
  const resolved = from.driverOf(device);
  const driver = resolved?.driver;
  const app = resolved?.app;
  const values = from.values(device.id);
  const own = from.own(device.appId);
  const capabilitiesObj: DeviceItem['capabilitiesObj'] = {};
  const insights: Record<string, unknown>[] = [];
  for (const capabilityId of device.capabilities) {
    const definition = effectiveCapability(capabilityId, device.capabilitiesOptions[capabilityId], own);
    const stored = values.get(capabilityId);
    const { uiComponent: _ui, ...rest } = definition;
    // In the hub's language where the ecosystem words the capability in it, unless the device names it itself.
    const options = device.capabilitiesOptions[capabilityId];
    const title = (options?.title === undefined && capabilityText(capabilityId, 'title', language)) || definition.title;
    const units = (options?.units === undefined && capabilityText(capabilityId, 'units', language)) || definition.units;
    capabilitiesObj[capabilityId] = {
      ...rest,
      title,
      ...(units !== undefined ? { units } : {}),
      value: definition.getable ? (stored?.value ?? null) : null,
      lastUpdated: stored?.lastUpdated ? new Date(stored.lastUpdated).toISOString() : null,
      options: device.capabilitiesOptions[capabilityId] ?? {},
      iconObj: null,
    };
    if (definition.getable && (definition.type === 'number' || definition.type === 'boolean')) {
      insights.push({
        uri: `homey:device:${device.id}`,
        id: capabilityId,
        title,
        titleTrue: definition.titleTrue ?? null,
        titleFalse: definition.titleFalse ?? null,
        units: units ?? null,
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
          ...from.appImages(device.id),
        ]
      : [...from.appImages(device.id)],
    insights,
    color: app?.manifest.brandColor ?? null,
    connectivity: driver?.connectivity ?? [],
    createdAt: device.createdAt,
  };
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
