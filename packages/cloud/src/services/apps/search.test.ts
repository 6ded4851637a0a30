import { TRUSTED_APP_AUTHOR_IDS } from '@hearth/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnDatabases, INTERNAL_SECRET, internalToken, type Json, readJson } from '../../testing';
import { useCatalogue } from './test-helpers';

describeOnDatabases('app catalogue: finding apps', (backend) => {
  const catalogue = useCatalogue(backend);
  const { api, publish, uploadBuild } = catalogue;

  // What the first test finds besides its own app: a live app's zigbee driver, the developer's unpublished app.
  beforeAll(async () => {
    await publish('com.aurora.garden', '1.0.0');
    await api('POST', '/app/com.aurora.broken/build', catalogue.dev.token, { version: '0.1.0' });
  });

  it('finds apps by any word of their names in any language, with one typo, and filters', async () => {
    const { cloud, dev } = catalogue;
    await publish('com.aurora.search', '1.0.0', {
      name: { en: 'Nimbus Weather', de: 'Nimbus Wetterstation' },
      platforms: ['local', 'cloud'],
      compatibility: '>=12.0.0',
    });
    const search = async (q: string, extra = '') =>
      (await readJson(await api('GET', `/app/search?query=${encodeURIComponent(q)}${extra}`, null))).map((a: Json) => a.id);
    expect(await search('nimbus')).toEqual(['com.aurora.search']);
    expect(await search('Wetterstation')).toEqual(['com.aurora.search']);
    expect(await search('wetterstatoin')).toEqual(['com.aurora.search']);
    expect(await search('nimbsu weather')).toEqual(['com.aurora.search']);
    expect(await search('nimb')).toEqual(['com.aurora.search']);
    expect(await search('nimbus zzzz')).toEqual([]);
    expect(await search('lumen')).toEqual(['com.lumenco.lights']);
    expect(await search('verlichting')).toContain('com.lumenco.lights');
    expect(await search('nimbus', '&homeyVersion=11.0.0')).toEqual([]);
    expect(await search('nimbus', '&homeyPlatform=cloud')).toEqual(['com.aurora.search']);
    expect(await search('guardian', '&homeyPlatform=cloud')).toEqual([]);
    expect(await readJson(await api('GET', '/app/search', null))).toMatchObject({ statusCode: 400, error: 'missing_parameter' });

    const browse = await readJson(await api('GET', '/app/browse?connectivity=zwave', null));
    expect(browse.apps.map((a: Json) => a.id)).toEqual(['com.nordheat.climate']);
    const page = await api('GET', '/app?page=1&count=2&category=lights', null);
    expect(Number(page.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
    expect(await readJson(page)).toHaveLength(2);
    const ids = await readJson(await api('GET', '/app/ids', null));
    expect(ids).toContain('com.aurora.search');
    expect(ids).not.toContain('com.aurora.broken');
    const highlighted = await readJson(await api('GET', '/app/highlight?platforms=local', null));
    expect(highlighted.map((a: Json) => a.id).sort()).toEqual(['com.guardian.security', 'com.lumenco.lights']);
    const mine = await readJson(await api('GET', '/app/me', dev.token));
    expect(mine.map((a: Json) => a.id)).toContain('com.aurora.broken');

    const zigbee = await readJson(
      await api('POST', '/app/search-zigbee-driver', null, { manufacturerName: 'aurora', productId: 'AG-SPOT-1' }),
    );
    expect(zigbee.map((m: Json) => `${m.app.id}/${m.driver.id}`)).toContain('com.aurora.garden/spot');
    const zwave = await readJson(
      await api('POST', '/app/search-zwave-driver', null, { manufacturerId: 798, productTypeId: 3, productId: 2 }),
    );
    expect(zwave.map((m: Json) => m.app.id)).toEqual(['com.nordheat.climate']);
    const discovered = await readJson(
      await api('POST', '/discover', null, { 'mdns-sd': ['_lumenco._tcp.local'], mac: ['5C:CF:7F:12:34:56'], ssdp: [], ble: [] }),
    );
    expect(discovered.map((d: Json) => d.app.id).sort()).toEqual(['com.lumenco.lights', 'com.wattwise.meter']);

    const internal = await internalToken(cloud);
    expect((await api('POST', '/app/sync', dev.token, {})).status).toBe(403);
    const synced = await readJson(await api('POST', '/app/sync', internal, {}));
    expect(synced.apps).toBeGreaterThan(8);
    expect(await search('nimbus')).toEqual(['com.aurora.search']);
    expect((await api('GET', '/app/summary?secret=wrong', null)).status).toBe(403);
    expect(await readJson(await api('GET', `/app/summary?secret=${INTERNAL_SECRET}`, null))).toMatchObject({
      liveApps: expect.any(Number),
    });
  });

  it('searches in the asked language and only answers apps that suit the hub: version, platform, model', async () => {
    await publish('com.heatwave.thermo', '1.0.0', {
      name: { en: 'Heatwave Thermostat', nl: 'Heatwave Thermostaat' },
      description: { en: 'Keeps every room cosy', nl: 'Houdt elke kamer behaaglijk' },
      compatibility: '>=12.0.0 <13.0.0',
      platforms: ['local'],
      platformLocalRequiredFeatures: ['zwave'],
    });
    await publish('com.cosyhome.hub', '1.0.0', {
      name: 'Cosy Home',
      description: { en: 'Heating schedules for every room' },
      compatibility: '>=5.0.0',
      platforms: ['local', 'cloud'],
    });
    await publish('com.zeta.heater', '1.0.0', { name: { en: 'Thermo Plus', nl: 'Warmte Plus' } });
    await publish('com.beta.monitor', '1.0.0', { name: { en: 'Warmte Monitor', nl: 'Hitte Monitor' } });
    const search = async (q: string, extra = '') => {
      const response = await api('GET', `/app/search?query=${encodeURIComponent(q)}${extra}`, null);
      expect(response.status).toBe(200);
      return (await readJson(response)).map((a: Json) => a.id);
    };

    // Descriptions are read in the asked language (English when none is asked), else in English.
    expect(await search('behaaglijk', '&language=nl')).toEqual(['com.heatwave.thermo']);
    expect(await search('behaaglijk', '&language=en')).toEqual([]);
    expect(await search('behaaglijk')).toEqual([]);
    expect(await search('schedules', '&language=de')).toEqual(['com.cosyhome.hub']);
    expect(await search('schedlues', '&language=nl')).toEqual(['com.cosyhome.hub']);
    // A name match ranks over a description match; names match in any language.
    expect(await search('cosy', '&language=en')).toEqual(['com.cosyhome.hub', 'com.heatwave.thermo']);
    expect(await search('cosy', '&language=nl')).toEqual(['com.cosyhome.hub']);
    expect(await search('thermostaat', '&language=en')).toEqual(['com.heatwave.thermo']);
    // Names in the asked language rank first, then names in English for apps that have none in it.
    expect(await search('warmte', '&language=en')).toEqual(['com.beta.monitor', 'com.zeta.heater']);
    expect(await search('warmte', '&language=nl')).toEqual(['com.zeta.heater', 'com.beta.monitor']);

    // The hub's software version against the live build's compatibility range.
    expect(await search('heatwave', '&homeyVersion=12.4.0')).toEqual(['com.heatwave.thermo']);
    expect(await search('heatwave', '&homeyVersion=v12.1')).toEqual(['com.heatwave.thermo']);
    expect(await search('heatwave', '&homeyVersion=13.0.0')).toEqual([]);
    expect(await search('heatwave', '&homeyVersion=11.9.9')).toEqual([]);
    expect(await search('room', '&language=en&homeyVersion=13.1.0')).toEqual(['com.cosyhome.hub']);
    // The platform, asked directly or through the model; a local model's hardware against the required features.
    expect(await search('heatwave', '&homeyPlatform=cloud')).toEqual([]);
    expect(await search('cosy', '&language=en&homeyPlatform=cloud')).toEqual(['com.cosyhome.hub']);
    expect(await search('heatwave', '&homeyModel=hearth-pro-5q')).toEqual(['com.heatwave.thermo']);
    expect(await search('heatwave', '&homeyModel=hearth-pro-mini-6q')).toEqual([]);
    expect(await search('heatwave', '&homeyModel=hearth-cloud')).toEqual([]);
    expect(await search('heatwave', '&homeyModel=hearth-pro-9z')).toEqual(['com.heatwave.thermo']);
    expect(await search('cosy', '&language=en&homeyModel=hearth-cloud')).toEqual(['com.cosyhome.hub']);
    expect(await search('cosy', '&language=en&homeyModel=hearth-pro-mini-6q&homeyVersion=12.4.0')).toEqual(['com.cosyhome.hub']);

    // Browse searches in the asked language too.
    const browse = await readJson(await api('GET', '/app/browse?query=behaaglijk&language=nl', null));
    expect(browse.apps.map((a: Json) => a.id)).toEqual(['com.heatwave.thermo']);
    expect(await readJson(await api('GET', '/app/search?query=cosy&language=dutch', null))).toMatchObject({
      statusCode: 400,
      error: 'invalid_parameter',
    });
    // Hardware a manifest may require is one the catalogue knows.
    const failed = await uploadBuild('com.heatwave.thermo', '1.0.1', { platformLocalRequiredFeatures: ['teleport'] });
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringContaining('platformLocalRequiredFeatures') });
  });

  it("searches for the hub's platform version against the live build's platformCompatibility of that platform", async () => {
    await publish('com.gen.two', '1.0.0', {
      name: 'Generation Two',
      platforms: ['local', 'cloud'],
      platformCompatibility: { local: '>=2' },
    });
    await publish('com.gen.one', '1.0.0', { name: 'Generation One', platformCompatibility: { local: '^1.0.0' } });
    await publish('com.gen.any', '1.0.0', { name: 'Generation Any' });
    const search = async (filters: string) => {
      const response = await api('GET', `/app/search?query=generation${filters}`, null);
      expect(response.status).toBe(200);
      return (await readJson(response)).map((a: Json) => a.id).sort();
    };
    expect(await search('')).toEqual(['com.gen.any', 'com.gen.one', 'com.gen.two']);
    // The platform version of the hub's platform; without a platform, any platform the app runs on.
    expect(await search('&homeyPlatformVersion=2')).toEqual(['com.gen.any', 'com.gen.two']);
    expect(await search('&homeyPlatformVersion=1')).toEqual(['com.gen.any', 'com.gen.one', 'com.gen.two']);
    expect(await search('&homeyPlatform=local&homeyPlatformVersion=1')).toEqual(['com.gen.any', 'com.gen.one']);
    expect(await search('&homeyPlatform=local&homeyPlatformVersion=2.1')).toEqual(['com.gen.any', 'com.gen.two']);
    expect(await search('&homeyPlatform=cloud&homeyPlatformVersion=1')).toEqual(['com.gen.two']);
    expect(await search('&homeyModel=hearth-pro-5q&homeyPlatformVersion=2')).toEqual(['com.gen.any', 'com.gen.two']);
    expect(await search('&homeyModel=hearth-pro-5q&homeyPlatformVersion=1&homeyVersion=12.0.0')).toEqual([
      'com.gen.any',
      'com.gen.one',
    ]);
    const app = await readJson(await api('GET', '/app/com.gen.two', null));
    expect(app.platformCompatibility).toEqual({ local: '>=2' });
    expect(await readJson(await api('GET', '/app/search?query=generation&homeyPlatformVersion=two', null))).toMatchObject({
      statusCode: 400,
      error: 'invalid_parameter',
    });
    // A range the catalogue cannot read fails the archive.
    const failed = await uploadBuild('com.gen.any', '1.0.1', { platformCompatibility: { local: 'newest please' } });
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringContaining('platformCompatibility') });
  });

  it('browses live apps by platform, connectivity, category and features, a page at a time', async () => {
    const kit = { category: ['browse-kit'] };
    await publish('com.kit.alpha', '1.0.0', { ...kit, flow: { actions: [{ id: 'go' }] } });
    await publish('com.kit.beta', '1.0.0', {
      category: ['browse-kit', 'security'],
      platforms: ['local', 'cloud'],
      drivers: [{ id: 'lock', name: { en: 'Lock' }, class: 'lock', capabilities: ['locked'], connectivity: ['zwave', 'lan'] }],
    });
    await publish('com.kit.gamma', '1.0.0', { ...kit, platforms: ['cloud'], drivers: [], settings: [{ id: 'token' }] });
    // Approved without release: not live, so never browsed.
    await publish('com.kit.delta', '1.0.0', kit, false);
    const browse = async (filters: string) => {
      const response = await api('GET', `/app/browse?${filters}`, null);
      expect(response.status).toBe(200);
      const { total, apps } = await readJson(response);
      return { total, ids: apps.map((a: Json) => a.id) };
    };
    const all = ['com.kit.gamma', 'com.kit.beta', 'com.kit.alpha'];
    expect(await browse('category=browse-kit')).toEqual({ total: 3, ids: all });
    expect(await browse('category=browse-kit&platform=cloud')).toEqual({ total: 2, ids: ['com.kit.gamma', 'com.kit.beta'] });
    expect(await browse('category=browse-kit&platform=local')).toEqual({ total: 2, ids: ['com.kit.beta', 'com.kit.alpha'] });
    expect(await browse('category=browse-kit&platform=cloud&platform=local')).toEqual({ total: 3, ids: all });
    expect(await browse('category=browse-kit&connectivity=zwave')).toEqual({ total: 1, ids: ['com.kit.beta'] });
    expect(await browse('category=browse-kit&connectivity=lan&connectivity=zigbee')).toEqual({
      total: 2,
      ids: ['com.kit.beta', 'com.kit.alpha'],
    });
    expect(await browse('category=browse-kit&features=drivers')).toEqual({ total: 2, ids: ['com.kit.beta', 'com.kit.alpha'] });
    expect(await browse('category=browse-kit&features=drivers&features=flow')).toEqual({ total: 1, ids: ['com.kit.alpha'] });
    expect(await browse('category=browse-kit&features=settings&platform=local')).toEqual({ total: 0, ids: [] });
    expect(await browse('category=browse-kit&category=security&connectivity=zwave')).toEqual({
      total: 1,
      ids: ['com.kit.beta'],
    });
    expect(await browse('category=browse-kit&limit=1&offset=1')).toEqual({ total: 3, ids: ['com.kit.beta'] });
    expect(await browse('category=browse-kit&offset=5')).toEqual({ total: 3, ids: [] });
    // Without filters every live app, newest first; a category nobody uses finds none.
    const every = await browse('limit=100');
    expect(every.ids.slice(0, 3)).toEqual(all);
    expect(every.ids).not.toContain('com.kit.delta');
    expect(every.total).toBe((await readJson(await api('GET', '/app/ids', null))).length);
    expect(await browse('category=nothing-here')).toEqual({ total: 0, ids: [] });
    expect(await readJson(await api('GET', '/app/browse?limit=0', null))).toMatchObject({ statusCode: 400 });
  });

  it('answers highlighted apps grouped by category, named and described in the asked language', async () => {
    const highlights = async (filters: string) => {
      const response = await api('GET', `/app/highlight2?${filters}`, null);
      expect(response.status).toBe(200);
      const apps = new Map<string, Json>();
      for (const group of (await readJson(response)) as Json[]) for (const app of group.apps) apps.set(app.id, app);
      return apps;
    };
    const dutch = await highlights('language=nl');
    expect(dutch.get('com.lumenco.lights')).toMatchObject({
      name: 'Lumen & Co Verlichting',
      // No Dutch description: the English one.
      description: 'Control your Lumen & Co Zigbee lights.',
    });
    expect(dutch.get('com.guardian.security')?.name).toBe('Guardian Security');
    expect((await highlights('language=de&platform=local')).get('com.guardian.security')?.name).toBe('Guardian Sicherheit');
    expect((await highlights('language=de-CH')).get('com.guardian.security')?.name).toBe('Guardian Sicherheit');
    expect((await highlights('language=fr')).get('com.lumenco.lights')?.name).toBe('Lumen & Co Lights');
    // Without a language every translation is answered.
    expect((await highlights('')).get('com.lumenco.lights')?.name).toEqual({
      en: 'Lumen & Co Lights',
      nl: 'Lumen & Co Verlichting',
    });
    expect(await readJson(await api('GET', '/app/highlight2?language=dutch', null))).toMatchObject({
      statusCode: 400,
      error: 'invalid_parameter',
    });
  });

  it('serves the demo catalogue: verified and community authors, each kind of support link, an update', async () => {
    const get = async (id: string) => readJson(await api('GET', `/app/${id}`, null));
    const lights = await get('com.lumenco.lights');
    expect(lights).toMatchObject({ liveVersion: '3.3.0', testVersion: '3.4.0-beta.1', author: { verified: true } });
    expect(lights.rating.count).toBe(1);
    expect((await get('com.guardian.security')).support).toBe('https://support.hearth.test/guardian');
    // The provider's own apps team publishes a first-party app: its author is one of the trusted authors.
    const chime = await get('com.hearth.chime');
    expect(chime).toMatchObject({ support: 'https://labs.hearth.app/chime', author: { verified: true } });
    expect(TRUSTED_APP_AUTHOR_IDS).toContain(chime.author._id);
    expect((await get('com.nordheat.climate')).support).toBe('mailto:support@nordheat.example');
    const weather = await get('com.openweather.station');
    expect(weather).toMatchObject({
      bugs: 'https://github.com/jdevries/com.openweather.station/issues',
      author: { verified: false },
    });
    expect(weather.support).toBeUndefined();
    expect(weather.liveBuild.bugs).toBe('https://github.com/jdevries/com.openweather.station/issues');
    const speakers = await get('com.soundwave.speakers');
    expect(speakers.homeyCommunityTopicId).toBe(48213);
    expect(speakers.liveBuild.homeyCommunityTopicId).toBe(48213);
    const blinds = await get('net.tinker.blinds');
    expect([blinds.support, blinds.bugs, blinds.homeyCommunityTopicId]).toEqual([undefined, undefined, undefined]);
    const install = await readJson(await api('GET', '/app/com.lumenco.lights/install?secret=hub&version=3.2.1', null));
    expect(install.version).toBe('3.2.1');
  });
});

describe('search keys', () => {
  it('matches words within one edit', async () => {
    const { withinOneEdit } = await import('./search');
    expect(withinOneEdit('lumen', 'lumne')).toBe(true);
    expect(withinOneEdit('lumen', 'lumen')).toBe(true);
    expect(withinOneEdit('lumen', 'luen')).toBe(true);
    expect(withinOneEdit('lumen', 'lumenx')).toBe(true);
    expect(withinOneEdit('lumen', 'lxmex')).toBe(false);
    expect(withinOneEdit('abcde', 'bcdxe')).toBe(false);
  });

  it('scores exact words over prefixes over typos', async () => {
    const { matchScore } = await import('./search');
    expect(matchScore('lumenco', 'lumenco')).toBe(3);
    expect(matchScore('lum', 'lumenco')).toBe(2);
    expect(matchScore('lumneco', 'lumenco')).toBe(1);
    expect(matchScore('lumneco', 'lumencobulbs')).toBe(1);
    expect(matchScore('lumne', 'lumenco')).toBe(0);
    expect(matchScore('lux', 'lumenco')).toBe(0);
    expect(matchScore('lumxnxo', 'lumenco')).toBe(0);
  });
});
