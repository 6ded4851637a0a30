import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { translate } from '../../runtime/manifest';
import type { AppService, ResolvedDriver } from '../apps/service';
import type { NewDevice } from '../devices/service';

function driverView(apps: AppService, resolved: ResolvedDriver, language: string) {
  const { app, driver, id } = resolved;
  const icon = `/app/${app.id}/drivers/${driver.id}/assets/icon.svg`;
  const appName = translate(app.manifest.name, language);
  return {
    id,
    name: translate(driver.name, language),
    ownerUri: `homey:app:${app.id}`,
    ownerId: app.id,
    ownerName: appName,
    uriObj: {
      type: 'app',
      id: app.id,
      name: appName,
      icon: `/app/${app.id}/assets/icon.svg`,
      color: app.manifest.brandColor ?? null,
    },
    icon,
    iconObj: { id: `${id}:icon`, url: icon },
    images: driver.images ?? {
      small: `/app/${app.id}/drivers/${driver.id}/assets/images/small.png`,
      large: `/app/${app.id}/drivers/${driver.id}/assets/images/large.png`,
    },
    ready: apps.isRunning(app.id),
    pair: driver.pair ?? [],
    unpair: (driver.unpair ?? []).length > 0,
    repair: (driver.repair ?? []).length > 0,
    color: app.manifest.brandColor ?? null,
    deprecated: driver.deprecated ?? false,
    class: driver.class,
    connectivity: driver.connectivity ?? [],
    capabilities: driver.capabilities,
  };
}

/** Drivers of the installed apps, and pair sessions with them. */
export const driversManager: HubManager = {
  name: 'drivers',
  create: (context, services) => {
    const { apps, pairing } = services;
    const language = context.config.language;
    return {
      implementations: implement<typeof hubOperations.drivers, HubPrincipal>(hubOperations.drivers, {
        getState: () => ({ drivers: apps.drivers().length }),
        getDrivers: () => Object.fromEntries(apps.drivers().map((d) => [d.id, driverView(apps, d, language)])),
        getDriver: ({ params }) => {
          const driver = apps.findDriver(params.id);
          if (!driver) throw notFound('Driver', params.id);
          return driverView(apps, driver, language);
        },
        getPairSession: ({ params, principal }) => pairing.get(principal.userId, params.id),
        createPairSession: ({ body, principal }) => pairing.create(principal.userId, body),
        deletePairSession: ({ params, principal }) => {
          pairing.delete(principal.userId, params.id);
          return undefined;
        },
        emitPairingHeartbeat: ({ params, principal }) => pairing.heartbeat(principal.userId, params.id),
        emitPairingEvent: ({ params, body, principal }) =>
          pairing.emit(principal.userId, params.id, body.event, body.data) ?? null,
        emitPairingCallback: ({ params, body, principal }) => {
          pairing.callback(principal.userId, params.id, body.callbackId, body.data);
          return undefined;
        },
        createPairSessionDevice: ({ params, body, principal }) =>
          pairing.addDevice(principal.userId, params.id, body as NewDevice),
        deletePairSessionDevice: ({ params, principal }) => {
          pairing.removeDevice(principal.userId, params.id);
          return undefined;
        },
        getPairSessions: ({ principal }) => pairing.list(principal.userId),
        updatePairSession: ({ params, body, principal }) => pairing.update(principal.userId, params.id, body),
        getDriverByUri: ({ params }) => {
          const appId = /^homey:app:(.+)$/.exec(params.uri)?.[1];
          const driver = appId ? apps.findDriver(`homey:app:${appId}:${params.id}`) : undefined;
          if (!driver) throw notFound('Driver', `${params.uri}:${params.id}`);
          return driverView(apps, driver, language);
        },
      }),
    };
  },
};
