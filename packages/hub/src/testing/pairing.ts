import type { TestHub } from './hub';
import { until } from './until';

/** Waits until the app `appId` runs on the test hub (the built-in virtual app by default). */
export function untilAppRunning(t: TestHub, appId = 'com.hearth.virtual') {
  return until(
    () => t.call<{ state?: string }>('GET', `/apps/app/${appId}`),
    (app) => app.body.state === 'running',
  );
}

/**
 * Pairs one device of `driverId` through a real pair session: emits `event` (with `data`) and adds the first
 * device it answers. Answers the new device's id.
 */
export async function pairDevice(
  t: TestHub,
  driverId: string,
  options: { event?: string; data?: unknown; zoneId?: string } = {},
): Promise<string> {
  const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
    type: 'pair',
    driverId,
    ...(options.zoneId ? { zoneId: options.zoneId } : {}),
  });
  const found = await t.call<unknown>('POST', `/drivers/pairsession/${session.body.id}/emit`, {
    event: options.event ?? 'list_devices',
    data: options.data,
  });
  const candidate = Array.isArray(found.body) ? found.body[0] : found.body;
  return (await t.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate)).body.id;
}
