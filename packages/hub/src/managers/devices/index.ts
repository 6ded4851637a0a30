import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { capabilityCatalogue, capabilityView, effectiveCapability } from '../../runtime/capabilities';
import { serveDeviceCards } from './cards';
import { DeviceGroups } from './groups';
import { deviceMigrations } from './service';

/** Devices: records, settings and capability values. */
export const devicesManager: HubManager = {
  name: 'devices',
  migrations: deviceMigrations,
  create: (context, services) => {
    const { devices, apps, deviceControl, processes } = services;
    const view = (id: string) => devices.view(devices.require(id));
    const groups = new DeviceGroups(context, devices, apps);
    let stopCards: (() => void) | undefined;
    return {
      implementations: implement<typeof hubOperations.devices, HubPrincipal>(hubOperations.devices, {
        getState: () => ({ devices: devices.list().length }),
        getDevices: () => Object.fromEntries(devices.list().map((d) => [d.id, devices.view(d)])),
        getDevice: ({ params }) => view(params.id),
        updateDevice: ({ params, body }) => {
          const before = devices.require(params.id).name;
          const updated = devices.update(params.id, body);
          if (updated.name !== before) processes.deviceHooks.renamed(updated.id, updated.name);
          return devices.view(updated);
        },
        deleteDevice: ({ params }) => {
          devices.delete(params.id);
          return undefined;
        },
        getDeviceSettingsObj: ({ params }) => devices.settingsObj(params.id),
        setDeviceSettings: async ({ params, body }) => {
          // The device's app (when it has code) accepts or refuses the change before it is stored.
          devices.checkSettings(params.id, body);
          await processes.deviceHooks.settingsChanging(params.id, body);
          // Settings the device keeps itself (Z-Wave configuration parameters) reach it first; refused, none is stored.
          await deviceControl.writeSettings(params.id, body);
          return devices.setSettings(params.id, body);
        },
        getCapabilityValue: ({ params }) => devices.getCapabilityValue(params.deviceId, params.capabilityId),
        setCapabilityValue: async ({ params, body, principal }) => {
          await deviceControl.setCapabilityValue(
            params.deviceId,
            params.capabilityId,
            body.value,
            {
              ...(body.transactionId ? { transactionId: body.transactionId } : {}),
              ...(body.opts ? { opts: body.opts } : {}),
            },
            { kind: 'api', sessionId: principal.sessionId, userId: principal.userId },
          );
          return undefined;
        },
        createGroup: ({ body }) => devices.view(groups.create(body)),
        updateGroup: ({ params, body }) => devices.view(groups.update(params.id, body)),
        deleteDeviceFromGroup: ({ params }) => devices.view(groups.removeDevice(params.groupId, params.deviceId)),
        getCapabilities: () => ({
          ...Object.fromEntries([...capabilityCatalogue.values()].map((c) => [c.id, capabilityView(c)])),
          // The apps' own capabilities, under their owner's uri (two apps may each have a `mode`).
          ...Object.fromEntries(
            apps
              .list()
              .flatMap((app) =>
                [...devices.own(app.id).values()].map((c) => [
                  `homey:app:${app.id}:${c.id}`,
                  { ...capabilityView(c), ownerUri: `homey:app:${app.id}` },
                ]),
              ),
          ),
        }),
        getCapability: ({ params }) => {
          if (params.uri === 'homey:manager:devices') {
            const capability = capabilityCatalogue.get(params.id);
            if (!capability) throw notFound('Capability', params.id);
            return capabilityView(capability);
          }
          const match = /^homey:app:(.+)$/.exec(params.uri);
          const app = match ? apps.find(match[1] as string) : undefined;
          const own = app ? devices.own(app.id) : undefined;
          const used = own?.has(params.id) || app?.manifest.drivers?.some((d) => d.capabilities.includes(params.id));
          if (!app || !used) throw notFound('Capability', `${params.uri}:${params.id}`);
          return { ...capabilityView(effectiveCapability(params.id, undefined, own)), ownerUri: params.uri };
        },
      }),
      start: () => {
        stopCards = serveDeviceCards(services.flowCards, context.bus, devices, deviceControl);
      },
      stop: () => stopCards?.(),
    };
  },
};
