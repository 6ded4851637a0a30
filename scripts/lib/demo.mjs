/** The demo world's hubs (ARCHITECTURE.md): a Pro, a Pro mini and a cloud hub. Ids are 24 hex characters. */
export const demoHubs = [
  { id: '5ea7c0de00000000000000a1', name: 'Home', model: 'hearth-pro-5q', portOffset: 0 },
  { id: '5ea7c0de00000000000000b2', name: 'Holiday home', model: 'hearth-pro-mini-6q', portOffset: 1 },
  { id: '5ea7c0de00000000000000c3', name: 'Studio', model: 'hearth-cloud', portOffset: 2 },
];

export const demoCredentials = {
  /** The demo account's cloud `_id` (as the cloud's demo seed creates it): the demo hubs' owner. */
  userId: '5ea7c0de0000000000000001',
  email: 'demo@hearth.test',
  password: 'hearth-demo-password',
  /** The shared password of the demo catalogue's developer accounts (listed in the README). */
  developerPassword: 'hearth-developer-password',
  clients: [
    { id: 'hearth-demo', secret: 'hearth-demo-secret' },
    { id: 'hearth-support-form', secret: null },
  ],
};

/** @typedef {{ host: string, portBase: number, cloudUrl: string, publicCloudUrl?: string, internalSecret: string }} HubProcessOptions */

/**
 * One hub's process at its port on `host`, with the environment it runs with; `owned` hubs come with the demo
 * account as their owner.
 * @param {{ id: string, name: string, model: string, portOffset: number }} hub
 * @param {HubProcessOptions} options
 * @param {boolean} owned
 */
function hubProcess(hub, { host, portBase, cloudUrl, publicCloudUrl, internalSecret }, owned) {
  const port = portBase + hub.portOffset;
  const env = {
    HUB_ID: hub.id,
    HUB_NAME: hub.name,
    HUB_MODEL: hub.model,
    HUB_HOST: host,
    HUB_PORT: String(port),
    HEARTH_CLOUD_URL: cloudUrl,
    HEARTH_CLOUD_PUBLIC_URL: publicCloudUrl ?? cloudUrl,
    HEARTH_INTERNAL_CLIENT_SECRET: internalSecret,
    ...(owned ? { HUB_OWNER_ATHOM_ID: demoCredentials.userId, HEARTH_DEMO: '1' } : {}),
  };
  return { ...hub, port, url: `http://${host}:${port}`, env };
}

/**
 * The demo hubs at their ports on `host`, each with the environment its process runs with.
 * `cloudUrl` is where the hubs reach the cloud, `publicCloudUrl` where people's browsers do (their web app's sign-in).
 * @param {HubProcessOptions} options
 */
export function demoHubProcesses(options) {
  return demoHubs.map((hub) => hubProcess(hub, options, true));
}

/**
 * The hub `npm start -- --unclaimed-hub` adds beside the demo hubs: a fresh hub nobody owns, for trying the claim
 * (its web page shows the code). Not in the cloud's demo seed and without a configured owner, so it registers
 * unowned; its data stays in `.data/` like the others', so once claimed it stays claimed until `--reset`.
 * @param {HubProcessOptions} options
 */
export function unclaimedHubProcess(options) {
  return hubProcess(
    { id: '5ea7c0de00000000000000d4', name: 'New hub', model: 'hearth-pro-mini-6q', portOffset: 3 },
    options,
    false,
  );
}
