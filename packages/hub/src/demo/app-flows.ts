import type { Hub } from '../server';

type Api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => Promise<T>;

/** The apps whose cards the demo flows use. */
const APPS = ['com.lumenco.lights', 'com.guardian.security', 'com.soundwave.speakers', 'com.wattwise.meter', 'net.tinker.blinds'];
/** How long the seed waits for those apps' processes to run (their cards exist only then). */
const START_TIMEOUT_MS = 30_000;

const app = (id: string) => `homey:app:${id}`;

/** Resolves once every app of `appIds` runs (or once `timeoutMs` passed; flows of one that did not are broken until it does). */
function untilRunning(hub: Hub, appIds: readonly string[], timeoutMs: number): Promise<void> {
  const { bus, clock } = hub.context;
  const { apps } = hub.services;
  const waiting = () => appIds.filter((id) => apps.find(id) && !apps.isRunning(id));
  if (waiting().length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      off();
      cancel();
      resolve();
    };
    const off = bus.on('app.state', 'demo-seed', () => {
      if (waiting().length === 0) done();
    });
    const cancel = clock.setTimeout(done, timeoutMs);
  });
}

/**
 * Flows of the demo world that use the store apps' own cards, across apps: a scene on the sofa lamp starts dinner
 * music in the kitchen unless the house is armed, closed bedroom blinds set the sofa lamp to relax, an intrusion
 * while armed and a tariff change notify. Flows whose device the hub does not have (a cloud hub has no radio
 * devices) are left out.
 */
export async function seedAppFlows(hub: Hub, api: Api, folders: { lighting: string; security: string }): Promise<void> {
  await untilRunning(hub, APPS, START_TIMEOUT_MS);
  const devices = Object.values(await api<Record<string, { id: string; name: string }>>('GET', '/devices/device'));
  const device = (name: string) => {
    const found = devices.find((d) => d.name === name);
    return found ? { id: found.id, name: found.name } : undefined;
  };
  const notify = (text: string) => ({
    uri: 'homey:manager:notifications',
    id: 'create_notification',
    args: { text },
    group: 'then',
  });

  const sofa = device('Sofa lamp');
  const speaker = device('Kitchen speaker');
  const blinds = device('Bedroom blinds');
  const meter = device('Smart meter');
  const flows: Record<string, unknown>[] = [];
  if (sofa && speaker)
    flows.push({
      name: 'Dinner music',
      folder: folders.lighting,
      trigger: { uri: app('com.lumenco.lights'), id: 'scene_changed', args: { device: sofa } },
      conditions: [{ uri: app('com.guardian.security'), id: 'is_armed', args: {}, inverted: true, group: 'group1' }],
      actions: [
        {
          uri: app('com.soundwave.speakers'),
          id: 'play_playlist',
          args: { device: speaker, playlist: 'dinner' },
          group: 'then',
        },
      ],
    });
  if (blinds && sofa)
    flows.push({
      name: 'Blinds down, lights soft',
      folder: folders.lighting,
      trigger: { uri: app('net.tinker.blinds'), id: 'fully_closed', args: { device: blinds } },
      conditions: [],
      actions: [{ uri: app('com.lumenco.lights'), id: 'set_scene', args: { device: sofa, scene: 'relax' }, group: 'then' }],
    });
  flows.push({
    name: 'Intrusion alert',
    folder: folders.security,
    trigger: { uri: app('com.guardian.security'), id: 'intrusion', args: {} },
    conditions: [],
    actions: [notify('Guardian saw someone while the house was armed')],
  });
  if (meter)
    flows.push({
      name: 'Tariff changed',
      trigger: { uri: app('com.wattwise.meter'), id: 'tariff_changed', args: { device: meter } },
      conditions: [],
      actions: [notify('The electricity tariff changed')],
    });
  for (const flow of flows) await api('POST', '/flow/flow', { enabled: true, ...flow });
}
