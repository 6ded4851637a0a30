#!/usr/bin/env node
// `npm start`: installs what is missing, builds, then runs the cloud and the three demo hubs on their
// embedded stores under .data/, seeding the demo world on first run. Ctrl-C stops everything.
// `npm start -- --reset` wipes the data directory first; `--no-build` runs what dist/ holds; `--unclaimed-hub` adds a
// fourth hub nobody owns, to try claiming one. Environment variables: see the README.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Children } from './lib/children.mjs';
import { demoCredentials, demoHubProcesses, unclaimedHubProcess } from './lib/demo.mjs';
import { ensureDependencies } from './lib/deps.mjs';
import { commissionDemoDevices } from './lib/matter-demo.mjs';
import { writeRunningFile } from './lib/running-file.mjs';
import { serverEntries, serverNodeArgs } from './lib/servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const dataDir = resolve(root, env.HEARTH_DATA_DIR ?? '.data');
const host = env.HEARTH_HOST ?? '127.0.0.1';
const cloudPort = Number(env.CLOUD_PORT ?? 4000);
const hubPortBase = Number(env.HUB_PORT_BASE ?? 4100);
const cloudUrl = env.CLOUD_PUBLIC_URL ?? `http://${host}:${cloudPort}`;
// Where the hubs reach the cloud, when that differs from where people do (an internal address or a relay).
const hubCloudUrl = env.HUB_CLOUD_URL ?? cloudUrl;
// The provider's internal client: the hubs register themselves with the cloud with it. A fresh secret each run
// unless one is given; the cloud stores only its hash.
const internalSecret = env.HEARTH_INTERNAL_CLIENT_SECRET ?? randomBytes(24).toString('hex');

if (process.argv.includes('--reset')) {
  console.log(`• Removing ${dataDir}`);
  rmSync(dataDir, { recursive: true, force: true });
}

ensureDependencies(root);
// --no-build: run what is in dist/ (the end-to-end suite builds once for all its systems).
if (!process.argv.includes('--no-build')) {
  const { buildServers, buildSupportForm, buildAccountPages, buildHomeApp } = await import('./build.mjs');
  console.log('• Building…');
  await buildServers();
  buildSupportForm();
  buildAccountPages();
  buildHomeApp();
}

/** What the demo's Z-Wave controller is, told by the hub wherever it describes its controller (`GET /zwave/state`). */
const ZWAVE_STAND_IN = "npm start's virtual Z-Wave network: zwave-js's mock controller and nodes, a stand-in for a Z-Wave stick";

const runningFile = join(dataDir, 'running.json');
const children = new Children();
const shutdown = (/** @type {number} */ exitCode) => children.shutdown(exitCode, () => rmSync(runningFile, { force: true }));
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

/**
 * Starts one server process and resolves with its ready line's facts; any of them stopping stops everything.
 * @param {string} label @param {'cloud' | 'hub' | 'mqttDemo' | 'zwaveDemo' | 'matterDemo'} kind @param {Record<string, string>} extraEnv
 * @returns {Promise<any>}
 */
async function launch(label, kind, extraEnv) {
  const { facts } = await children.launch(label, process.execPath, [...serverNodeArgs[kind], join(root, serverEntries[kind])], {
    cwd: root,
    env: { ...env, HEARTH_DATA_DIR: dataDir, ...extraEnv },
    ready: true,
    onExit: (code, signal) => {
      console.error(`[${label}] stopped unexpectedly (${code ?? signal}); stopping everything`);
      shutdown(1);
    },
  });
  return facts;
}

const hubOptions = { host, portBase: hubPortBase, cloudUrl: hubCloudUrl, publicCloudUrl: cloudUrl, internalSecret };
const hubs = demoHubProcesses(hubOptions);
// Opt-in rather than always: the default world stays the three owned hubs the tests and benchmarks expect, and the
// extra hub's process costs memory on small machines.
const unclaimed = process.argv.includes('--unclaimed-hub') ? unclaimedHubProcess(hubOptions) : null;
try {
  const cloud = await launch('cloud', 'cloud', {
    CLOUD_HOST: host,
    CLOUD_PORT: String(cloudPort),
    CLOUD_PUBLIC_URL: cloudUrl,
    HEARTH_DEMO: '1',
    HEARTH_INTERNAL_CLIENT_SECRET: internalSecret,
    HEARTH_DEMO_HUBS: JSON.stringify(hubs.map(({ id, name, model, url }) => ({ id, name, model, url }))),
  });
  // The demo broker (Mosquitto when installed, else aedes) with stand-ins for zigbee2mqtt and an ESPHome sensor; the
  // hub "Home" bridges it unless HUB_MQTT_URL names another broker. MQTT_DEMO=0 runs none.
  const mqttDemo = env.MQTT_DEMO === '0' ? null : await launch('mqtt demo', 'mqttDemo', { MQTT_DEMO_HOST: host });
  const hubMqttUrl = env.HUB_MQTT_URL ?? mqttDemo?.url;
  // The virtual Z-Wave network (zwave-js's mock controller and nodes in a process of their own), a STAND-IN FOR a
  // Z-Wave stick: the hub "Home" runs the real zwave-js driver on it. A stick named by HUB_ZWAVE_PORT is used
  // instead (by "Home" only: one stick, one controller); ZWAVE_DEMO=0 runs none.
  const zwaveDemo =
    env.HUB_ZWAVE_PORT || env.ZWAVE_DEMO === '0'
      ? null
      : await launch('zwave demo', 'zwaveDemo', { ZWAVE_MOCK_HOST: host, ZWAVE_MOCK_PORT: env.ZWAVE_DEMO_PORT ?? '0' });
  // The demo's virtual Matter devices (each a real Matter node on this machine's network, in a process of their own):
  // the hub "Home" commissions them over IP on first start. MATTER_DEMO=0 runs none.
  const matterDemoDir = join(dataDir, 'matter-demo');
  const matterDemo =
    env.MATTER_DEMO === '0' ? null : await launch('matter demo', 'matterDemo', { MATTER_DEMO_DIR: matterDemoDir });
  /** @type {Record<string, string>} */
  const homeZwave = zwaveDemo
    ? { HUB_ZWAVE_PORT: zwaveDemo.url, HUB_ZWAVE_STAND_IN: ZWAVE_STAND_IN }
    : { HUB_ZWAVE_PORT: env.HUB_ZWAVE_PORT ?? '' };
  const started = await Promise.all(
    [...hubs, ...(unclaimed ? [unclaimed] : [])].map((hub) =>
      launch(`hub ${hub.name}`, 'hub', {
        ...hub.env,
        ...(hub.portOffset === 0 && hubMqttUrl ? { HUB_MQTT_URL: hubMqttUrl } : {}),
        ...(hub.portOffset === 0 ? homeZwave : { HUB_ZWAVE_PORT: '' }),
      }).then((ready) => ({ ...hub, ...ready })),
    ),
  );
  /** @type {string[]} */
  let matterLines = [];
  const home = started.find((hub) => hub.portOffset === 0);
  if (matterDemo && home) {
    try {
      matterLines = await commissionDemoDevices(home, matterDemo.devices, matterDemoDir, console.log);
    } catch (error) {
      // The rest of the system is still worth using: say what failed and go on.
      console.error(
        `✖ The demo's Matter devices could not join hub ${home.name}: ${error instanceof Error ? error.message : error}`,
      );
    }
  }
  const lines = [
    '',
    'Hearth is running.',
    '',
    `  Cloud          ${cloud.url}  (database: ${cloud.database})`,
    `    API reference  ${cloud.url}/docs   OpenAPI ${cloud.url}/openapi.json`,
    `    Account pages  ${cloud.url}/`,
    `    Support form   ${cloud.url}/support/`,
    ...(cloud.mailbox
      ? [`    Dev mailbox    ${cloud.mailbox}  (no SMTP_URL: the mail the cloud sends, e.g. sign-up links, is kept here)`]
      : []),
    ...(mqttDemo
      ? [
          `  MQTT broker    ${mqttDemo.url}  (${mqttDemo.broker}; stand-ins for zigbee2mqtt and an ESPHome sensor publish ${mqttDemo.devices} demo devices, bridged by hub ${hubs[0]?.name})`,
        ]
      : []),
    ...(zwaveDemo
      ? [
          `  Z-Wave stick   ${zwaveDemo.url}  (STAND-IN: zwave-js's mock controller, no radio; hub ${hubs[0]?.name} runs the real zwave-js driver on it)`,
          ...zwaveDemo.nodes.map((/** @type {string} */ node) => `    node ${node}`),
          `    Add them in hub ${hubs[0]?.name}'s web app: Add a device → Z-Wave device (generic)`,
        ]
      : []),
    ...(matterDemo
      ? [
          `  Matter devices virtual devices in a process of their own, real Matter over IP, commissioned into hub ${home?.name}:`,
          ...matterLines,
          '    Add a real one: hub web app → Add a device → Matter device, with its pairing code (same network as the hub)',
        ]
      : []),
    ...started.flatMap((hub) => [
      `  Hub ${hub.name.padEnd(13)}${hub.url}  id ${hub.id}  (${hub.model})`,
      `    Web app        ${hub.url}/   API reference ${hub.url}/docs   owner token ${hub.ownerToken}`,
    ]),
    ...(unclaimed
      ? [
          `    ↑ ${unclaimed.name} is not set up yet: open ${unclaimed.url}/ for its claim code, then claim it at ${cloudUrl}/hubs/claim`,
        ]
      : [`  Try claiming a hub nobody owns: npm start -- --unclaimed-hub`]),
    '',
    `  Demo account   ${demoCredentials.email} / ${demoCredentials.password}`,
    `  Developers     apps-1…5@hearth.test, <name>@developers.hearth.test (listed in the README) / ${demoCredentials.developerPassword}`,
    `  OAuth clients  ${demoCredentials.clients.map((c) => (c.secret ? `${c.id} / ${c.secret}` : `${c.id} (public, PKCE)`)).join(', ')}`,
    `  Data           ${dataDir}`,
    '',
    'Press Ctrl-C to stop.',
  ];
  // What is running, for tools and end-to-end tests; removed again on stop.
  const running = {
    cloud: { url: cloud.url, mailbox: cloud.mailbox ?? null },
    hubs: started.map(({ id, name, model, url, ownerToken }) => ({ id, name, model, url, ownerToken })),
    mqttUrl: mqttDemo?.url ?? null,
    mqttBroker: mqttDemo?.broker ?? null,
    zwavePort: zwaveDemo?.url ?? null,
    matterDevices: matterDemo?.devices ?? [],
  };
  writeRunningFile(runningFile, running);
  console.log(lines.join('\n'));
} catch (error) {
  console.error(`✖ ${error instanceof Error ? error.message : error}`);
  shutdown(1);
}
