import { TRUSTED_APP_AUTHOR_IDS } from '@hearth/contract';
import { drawnAppIcon } from '@hearth/contract/app-icon';
import { strToU8, zipSync } from 'fflate';
import type { CloudContext } from '../../platform/context';
import { newId } from '../../platform/tokens';
import { hashPassword } from '../cloud/accounts';
import { DEMO_USER } from '../cloud/seed';
import { type Caller, TRUSTED_DEVELOPER_ROLE } from './access';
import type { AppCatalogue } from './service';

/** Password of the demo developer accounts (`<name>@developers.hearth.test`). */
export const DEMO_DEVELOPER_PASSWORD = 'hearth-developer-password';

interface DemoDeveloper {
  /** A fixed account id (the provider's own team); others get a fresh one. */
  id?: string;
  email: string;
  firstname: string;
  lastname: string;
  verified: boolean;
}

interface DemoApp {
  developer: DemoDeveloper;
  /** Versions published to stable, oldest first; the last is live. */
  versions: string[];
  beta?: string;
  highlighted?: boolean;
  manifest: Record<string, unknown>;
}

const developer = (email: string, firstname: string, lastname: string, verified: boolean): DemoDeveloper => ({
  email,
  firstname,
  lastname,
  verified,
});

/** The provider's own apps team: the five trusted authors whose apps Hearth support answers for. */
const hearthTeam: DemoDeveloper[] = TRUSTED_APP_AUTHOR_IDS.map((id, i) => ({
  id,
  email: `apps-${i + 1}@hearth.test`,
  firstname: 'Hearth',
  lastname: `Apps ${i + 1}`,
  verified: true,
}));
const lumenco = developer('lumenco@developers.hearth.test', 'Lumen & Co', 'B.V.', true);
const guardian = developer('guardian@developers.hearth.test', 'Guardian Systems', 'GmbH', true);
const nordheat = developer('nordheat@developers.hearth.test', 'NordHeat', 'AS', true);
const wattwise = developer('wattwise@developers.hearth.test', 'WattWise', 'B.V.', true);
const jasper = developer('jasper@developers.hearth.test', 'Jasper', 'de Vries', false);
const mira = developer('mira@developers.hearth.test', 'Mira', 'Kowalski', false);
const tom = developer('tom@developers.hearth.test', 'Tom', 'Tinker', false);
const flaky = developer('flakyhome@developers.hearth.test', 'Flaky', 'Home', false);

const driver = (id: string, name: string, klass: string, capabilities: string[], connectivity: string[], extra = {}) => ({
  id,
  name: { en: name },
  class: klass,
  capabilities,
  connectivity,
  ...extra,
});

/**
 * The third-party apps of the demo hubs (their packages are in `packages/hub/apps/store`), with a support link of
 * each kind the support form distinguishes: the provider's own support site (Guardian), an https site (Lumen & Co,
 * WattWise, FlakyHome), `mailto:` (NordHeat), only a bugs link (Weather Station), only a community topic id
 * (SoundWave) and none (Tinker Blinds). Lumen & Co's live version (3.3.0) is newer than the 3.2.1 the demo hubs
 * have installed.
 */
export const DEMO_APPS: DemoApp[] = [
  {
    // A first-party app: its https support link would send people to a website, but its author is one of the
    // provider's trusted authors, so the support form routes it to Hearth support.
    developer: hearthTeam[0] as DemoDeveloper,
    versions: ['1.2.0'],
    manifest: {
      id: 'com.hearth.chime',
      sdk: 3,
      name: { en: 'Hearth Chime', nl: 'Hearth Deurbel' },
      category: 'security',
      brandColor: '#E67E22',
      platforms: ['local', 'cloud'],
      support: 'https://labs.hearth.app/chime',
      drivers: [driver('chime', 'Door chime', 'doorbell', ['button', 'volume_set'], ['lan'])],
    },
  },
  {
    developer: lumenco,
    versions: ['3.2.1', '3.3.0'],
    beta: '3.4.0-beta.1',
    highlighted: true,
    manifest: {
      id: 'com.lumenco.lights',
      sdk: 3,
      name: { en: 'Lumen & Co Lights', nl: 'Lumen & Co Verlichting' },
      description: { en: 'Control your Lumen & Co Zigbee lights.' },
      category: 'lights',
      brandColor: '#1E6FD9',
      permissions: ['homey:wireless:zigbee'],
      support: 'https://support.lumenco.example/hearth',
      drivers: [
        driver('bulb-e27', 'Bulb E27', 'light', ['onoff', 'dim', 'light_hue', 'light_saturation'], ['zigbee'], {
          zigbee: { manufacturerName: ['LumenCo'], productId: ['LC-E27-RGB'] },
        }),
        driver('light-static-strip', 'Light strip', 'light', ['onoff', 'dim'], ['zigbee']),
      ],
      discovery: { 'lumenco-bridge': { type: 'mdns-sd', 'mdns-sd': { name: 'lumenco', protocol: 'tcp' } } },
    },
  },
  {
    developer: guardian,
    versions: ['4.0.0'],
    highlighted: true,
    manifest: {
      id: 'com.guardian.security',
      sdk: 3,
      name: { en: 'Guardian Security', de: 'Guardian Sicherheit' },
      category: 'security',
      brandColor: '#2C3E50',
      permissions: ['homey:wireless:zigbee'],
      support: 'https://support.hearth.test/guardian',
      drivers: [
        driver('motion-sensor', 'Motion sensor', 'sensor', ['alarm_motion', 'measure_temperature'], ['zigbee']),
        driver('door-sensor', 'Door sensor', 'sensor', ['alarm_contact'], ['zigbee']),
      ],
    },
  },
  {
    developer: nordheat,
    versions: ['2.0.4'],
    manifest: {
      id: 'com.nordheat.climate',
      sdk: 3,
      name: 'NordHeat Climate',
      category: 'climate',
      brandColor: '#C0392B',
      permissions: ['homey:wireless:zwave'],
      support: 'mailto:support@nordheat.example',
      drivers: [
        driver(
          'thermostat',
          'Floor thermostat',
          'thermostat',
          ['target_temperature', 'measure_temperature', 'thermostat_mode', 'measure_power', 'meter_power'],
          ['zwave'],
          { zwave: { manufacturerId: 798, productTypeId: [3], productId: [1, 2] } },
        ),
      ],
    },
  },
  {
    developer: wattwise,
    versions: ['2.3.0'],
    manifest: {
      id: 'com.wattwise.meter',
      sdk: 3,
      name: { en: 'WattWise Energy', nl: 'WattWise Energie' },
      category: 'energy',
      brandColor: '#27AE60',
      platforms: ['local', 'cloud'],
      support: 'https://wattwise.example/support',
      drivers: [driver('p1', 'P1 smart meter', 'sensor', ['measure_power', 'meter_power'], ['lan'])],
      discovery: { 'wattwise-p1': { type: 'mac', mac: { manufacturer: [[0x5c, 0xcf, 0x7f]] } } },
    },
  },
  {
    developer: jasper,
    versions: ['1.4.0'],
    manifest: {
      id: 'com.openweather.station',
      sdk: 3,
      name: 'Weather Station',
      category: 'climate',
      brandColor: '#16A085',
      permissions: ['homey:manager:api'],
      bugs: { url: 'https://github.com/jdevries/com.openweather.station/issues' },
      drivers: [
        driver(
          'station',
          'Weather station',
          'sensor',
          ['measure_temperature', 'measure_humidity', 'measure_luminance', 'measure_battery'],
          ['cloud'],
        ),
      ],
    },
  },
  {
    developer: mira,
    versions: ['5.1.0'],
    manifest: {
      id: 'com.soundwave.speakers',
      sdk: 3,
      name: { en: 'SoundWave Speakers' },
      category: 'music',
      brandColor: '#8E44AD',
      homeyCommunityTopicId: 48213,
      drivers: [driver('speaker', 'Speaker', 'speaker', ['speaker_playing', 'volume_set'], ['lan'])],
      discovery: { 'soundwave-ssdp': { type: 'ssdp', ssdp: { search: 'urn:soundwave:device:speaker:1' } } },
    },
  },
  {
    developer: tom,
    versions: ['0.9.2'],
    manifest: {
      id: 'net.tinker.blinds',
      sdk: 2,
      name: 'Tinker Blinds',
      category: 'appliances',
      permissions: ['homey:wireless:433'],
      drivers: [driver('blinds', 'Roller blinds', 'blinds', ['windowcoverings_state'], ['433'])],
    },
  },
  {
    developer: flaky,
    versions: ['1.0.3'],
    manifest: {
      id: 'com.flakyhome.sensors',
      sdk: 3,
      name: 'FlakyHome Sensors',
      category: 'tools',
      support: 'https://flakyhome.example/support',
      drivers: [driver('air', 'Air quality sensor', 'sensor', ['measure_co2', 'measure_temperature'], ['wifi'])],
    },
  },
];

/** An app package as a zip: its app.json and icon. */
export function demoArchive(manifest: Record<string, unknown>): Buffer {
  const files: Record<string, Uint8Array> = { 'app.json': strToU8(JSON.stringify(manifest, null, 2)) };
  const name = typeof manifest.name === 'string' ? manifest.name : String(manifest.id);
  files['assets/icon.svg'] = strToU8(drawnAppIcon(name, String(manifest.brandColor ?? '#888888')));
  return Buffer.from(zipSync(files));
}

/**
 * Publishes the demo hubs' third-party apps through the catalogue's own path (build, archive upload, submission,
 * approval), by verified and community developer accounts. Idempotent: apps that exist are left alone. The cloud
 * runs it at start when the demo world is seeded (`HEARTH_DEMO=1`); `npm start` needs nothing else.
 */
export async function seedDemoCatalogue(context: CloudContext, catalogue: AppCatalogue): Promise<void> {
  const { db } = context.database;
  const existing = new Set((await db.selectFrom('apps').select('id').execute()).map((r) => r.id));
  const missing = DEMO_APPS.filter((app) => !existing.has(String(app.manifest.id)));
  if (missing.length === 0) return;
  const passwordHash = await hashPassword(DEMO_DEVELOPER_PASSWORD);
  const developers = new Map<string, DemoDeveloper>();
  for (const dev of [...hearthTeam, ...missing.map((app) => app.developer)]) developers.set(dev.email, dev);
  for (const dev of developers.values())
    await db
      .insertInto('users')
      .values({
        id: dev.id ?? newId(),
        email: dev.email,
        password_hash: passwordHash,
        firstname: dev.firstname,
        lastname: dev.lastname,
        language: 'en',
        role_ids: JSON.stringify(dev.verified ? [TRUSTED_DEVELOPER_ROLE] : []),
        updated_at: new Date(context.clock.now()),
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
  const provider: Caller = { userId: null, provider: true, reviewer: true };
  for (const app of missing) {
    const { developer: dev } = app;
    const user = await db.selectFrom('users').select('id').where('email', '=', dev.email).executeTakeFirstOrThrow();
    const author: Caller = { userId: user.id, provider: false, reviewer: false };
    const appId = String(app.manifest.id);
    const releases = [
      ...app.versions.map((v) => ({ version: v, channel: 'stable' as const })),
      ...(app.beta ? [{ version: app.beta, channel: 'beta' as const }] : []),
    ];
    for (const { version, channel } of releases) {
      const manifest = {
        ...app.manifest,
        version,
        author: { name: `${dev.firstname} ${dev.lastname}`, email: dev.email },
      };
      const build = await catalogue.builds.createBuild(appId, author, {
        version,
        changelog: { en: `Version ${version}: improvements and fixes.` },
        readme: { en: `${appId} for Hearth.` },
      });
      await catalogue.builds.uploadArchive(build.archive._id, author, demoArchive(manifest));
      if (channel === 'stable') {
        await catalogue.submissions.createSubmission(appId, String(build.id), author, true);
        await catalogue.submissions.decideSubmission(appId, String(build.id), provider, 'approved');
      } else {
        await catalogue.builds.updateChannel(appId, String(build.id), author, channel);
      }
    }
    if (app.highlighted) await db.updateTable('apps').set({ highlighted: true }).where('id', '=', appId).execute();
  }
  // A review from the demo user, so the catalogue has ratings to show.
  const demoUser = await db.selectFrom('users').select('id').where('email', '=', DEMO_USER.email).executeTakeFirst();
  if (demoUser && missing.some((a) => a.manifest.id === 'com.lumenco.lights'))
    await catalogue.feedback.updateReview(
      'com.lumenco.lights',
      { userId: demoUser.id, provider: false, reviewer: false },
      {
        version: '3.2.1',
        rating: 4,
        comment: 'Reliable lights; pairing took two tries.',
      },
    );
}
