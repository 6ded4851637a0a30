import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postOverDevkit } from '../testing/devkit';
import { startTestHub, type TestHub } from '../testing/hub';
import { appsRoot, checkManifest } from './manifest';

/**
 * The ecosystem's own app validator (`homey-lib`'s `App#validate`) as the judge: a development-only use, in this test
 * (homey-lib's licence file is the GPL-3.0 text, so the hub's runtime does not load it for validation). "debug" is the
 * level the ecosystem's CLI validates at for `homey app run` and `homey app install`.
 */
type Validator = new (dir: string) => { validate(options: { level: 'debug' | 'publish' }): Promise<void> };
const EcosystemApp = (createRequire(import.meta.url)('homey-lib') as { App: Validator }).App;

async function ecosystemVerdict(dir: string, level: 'debug' | 'publish' = 'debug'): Promise<string | null> {
  // Its warnings (console.warn) are advice, not refusals; they are kept out of the test's output.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await new EcosystemApp(dir).validate({ level });
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    console.warn = warn;
  }
}

type Json = Record<string, unknown>;

const base = (): Json => ({
  id: 'com.example.fidelity',
  version: '1.0.0',
  compatibility: '>=12.2.0',
  sdk: 3,
  name: { en: 'Fidelity' },
  description: { en: 'Checks manifests' },
  author: { name: 'A. Developer' },
  drivers: [
    {
      id: 'plug',
      name: { en: 'Plug' },
      class: 'socket',
      capabilities: ['onoff', 'measure_power'],
      connectivity: ['lan'],
      pair: [
        { id: 'list_devices', template: 'list_devices', navigation: { next: 'add_devices' } },
        { id: 'add_devices', template: 'add_devices' },
      ],
    },
  ],
});
const driver = (manifest: Json) => (manifest.drivers as Json[])[0] as Json;
const levelCard = (titleFormatted: string) => ({
  actions: [
    {
      id: 'set_level',
      title: { en: 'Set the level' },
      titleFormatted: { en: titleFormatted },
      args: [
        { name: 'device', type: 'device', filter: 'driver_id=plug' },
        { name: 'level', type: 'number', min: 0, max: 10 },
      ],
    },
  ],
});

/** Manifests (and one missing file) the ecosystem's validator accepts or refuses, and what the case is about. */
const cases: { name: string; accepted: boolean; change(manifest: Json): void; withoutIcon?: boolean }[] = [
  { name: 'a plain app', accepted: true, change: () => {} },
  {
    name: 'an app the way the community writes it',
    accepted: true,
    change: (m) => {
      m.runtime = 'nodejs';
      m.api = { status: { method: 'get', path: '/status' } };
      Object.assign(driver(m), {
        id: 'LivingRoomPlug',
        connectivity: ['rf433'],
        settings: [
          {
            type: 'group',
            label: { en: 'Power' },
            children: [{ id: 'limit', type: 'number', label: { en: 'Limit' }, value: 5 }],
          },
        ],
      });
      m.flow = {
        triggers: [{ id: 'used', title: { en: 'Used' }, tokens: [{ name: 'watts', title: { en: 'Watts' }, example: 5 }] }],
        actions: [
          {
            id: 'mode',
            title: { en: 'Set mode' },
            args: [{ name: 'mode', type: 'dropdown', values: [{ id: 'eco', label: { en: 'Eco' } }] }],
          },
        ],
      };
    },
  },
  {
    name: 'an id with capitals',
    accepted: true,
    change: (m) => {
      m.id = 'com.Example.Fidelity';
    },
  },
  {
    name: 'no sdk (3 by default)',
    accepted: true,
    change: (m) => {
      delete m.sdk;
    },
  },
  {
    name: "a formatted title without the card's device",
    accepted: true,
    change: (m) => {
      m.flow = levelCard('Set to [[level]]');
    },
  },
  {
    name: 'no compatibility',
    accepted: false,
    change: (m) => {
      delete m.compatibility;
    },
  },
  {
    name: 'a pre-release version',
    accepted: false,
    change: (m) => {
      m.version = '1.0.0-beta.1';
    },
  },
  {
    name: 'SDK 3 on a platform older than 5.0.0',
    accepted: false,
    change: (m) => {
      m.compatibility = '>=4.0.0';
    },
  },
  {
    name: 'a compatibility that is no range',
    accepted: false,
    change: (m) => {
      m.compatibility = 'recent';
    },
  },
  {
    name: 'a connectivity the ecosystem lacks',
    accepted: false,
    change: (m) => {
      driver(m).connectivity = ['wifi'];
    },
  },
  {
    name: "a formatted title naming the card's device",
    accepted: false,
    change: (m) => {
      m.flow = levelCard('Set [[device]] to [[level]]');
    },
  },
  {
    name: 'a formatted title naming no argument',
    accepted: false,
    change: (m) => {
      m.flow = levelCard('Set the level');
    },
  },
  {
    name: 'an unknown device class',
    accepted: false,
    change: (m) => {
      driver(m).class = 'toaster';
    },
  },
  { name: 'no app icon', accepted: false, change: () => {}, withoutIcon: true },
];

const APP_JS = "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() {} };\n";
const DRIVER_JS = "const Homey = require('homey');\nmodule.exports = class extends Homey.Driver {};\n";
const DEVICE_JS = "const Homey = require('homey');\nmodule.exports = class extends Homey.Device {};\n";
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>\n';

/** Writes an app folder with `manifest`, its code and (unless told otherwise) its icon. */
function writeApp(root: string, manifest: Json, withIcon = true): string {
  const dir = mkdtempSync(join(root, 'app-'));
  writeFileSync(join(dir, 'app.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'app.js'), APP_JS);
  if (withIcon) {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'icon.svg'), ICON);
  }
  for (const { id } of (manifest.drivers ?? []) as { id: string }[]) {
    mkdirSync(join(dir, 'drivers', id), { recursive: true });
    writeFileSync(join(dir, 'drivers', id, 'driver.js'), DRIVER_JS);
    writeFileSync(join(dir, 'drivers', id, 'device.js'), DEVICE_JS);
  }
  return dir;
}

describe("manifests as the ecosystem's validator judges them", () => {
  let t: TestHub;
  let work: string;
  beforeAll(async () => {
    t = await startTestHub();
    work = mkdtempSync(join(tmpdir(), 'hearth-validator-'));
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const overDevkit = (dir: string) => postOverDevkit(t, dir);

  it.each(cases)('$name: the developer kit answers as the ecosystem does', async ({ change, accepted, withoutIcon }) => {
    const manifest = base();
    change(manifest);
    const dir = writeApp(work, manifest, !withoutIcon);
    const verdict = await ecosystemVerdict(dir);
    // The case is what it says it is, for the ecosystem's validator …
    expect(verdict === null, verdict ?? 'accepted').toBe(accepted);
    // … and the hub agrees: installs it, or refuses it naming the app.
    const answer = await overDevkit(dir);
    expect({ status: answer.status, error: answer.body.error }).toEqual(
      accepted ? { status: 200, error: undefined } : { status: 400, error: 'invalid_parameter' },
    );
  });

  it('says a Python app is valid but not supported yet, with its own code', async () => {
    const manifest = { ...base(), runtime: 'python', pythonVersion: '3.13', compatibility: '>=13.0.0' };
    const dir = writeApp(work, manifest);
    writeFileSync(join(dir, 'app.py'), 'from homey import app\n');
    expect(await ecosystemVerdict(dir)).toBeNull();
    const answer = await overDevkit(dir);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'python_apps_unsupported', error_description: expect.stringContaining('Python') });
  });

  const storeApps = readdirSync(join(appsRoot, 'store'));
  it.each(storeApps)('the demo store app %s passes the ecosystem’s validation at the level of app run/install', async (name) => {
    const dir = join(appsRoot, 'store', name);
    expect(await ecosystemVerdict(dir)).toBeNull();
    expect(checkManifest(JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')), { ecosystem: true, dir })).toEqual([]);
  });
});
