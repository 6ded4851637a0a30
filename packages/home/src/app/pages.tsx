import { type ComponentType, lazy, Suspense } from 'react';
import { Loading } from '../components/Status';

/** A page whose code is fetched when it is first opened, so the app's first load stays small. */
function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Page = lazy(async () => ({ default: await load() }));
  return function OnDemand(props: P) {
    return (
      <Suspense fallback={<Loading />}>
        <Page {...props} />
      </Suspense>
    );
  };
}

export const AlarmsPage = onDemand(async () => (await import('../features/alarms/AlarmsPage')).AlarmsPage);
export const MoodsPage = onDemand(async () => (await import('../features/moods/MoodsPage')).MoodsPage);
export const NotificationsPage = onDemand(
  async () => (await import('../features/notifications/NotificationsPage')).NotificationsPage,
);
export const EnergyPage = onDemand(async () => (await import('../features/energy/EnergyPage')).EnergyPage);
export const SystemPage = onDemand(async () => (await import('../features/system/SystemPage')).SystemPage);
export const MqttBridgePage = onDemand(async () => (await import('../features/mqtt/MqttBridgePage')).MqttBridgePage);
export const ZonesPage = onDemand(async () => (await import('../features/zones/ZonesPage')).ZonesPage);
