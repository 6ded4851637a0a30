import { describe, expect, it } from 'vitest';
import { TRUSTED_AUTHOR_IDS } from '../../config/constants';
import { compareVersions } from '../../lib/version';
import type { AppDetails } from '../../types/entities';
import { appIdOfDevice, classifyDevice, radioTags } from '../devices/utils/radios';
import { tree } from '../tree';
import { classifyApp } from './utils/classify';

const app = (over: Partial<AppDetails['liveBuild']> = {}, extra: Partial<AppDetails> = {}): AppDetails => ({
  id: 'com.example.app',
  author: { userId: 'someone', verified: true },
  liveBuild: { name: 'Example', ...over },
  liveVersion: '1.0.0',
  ...extra,
});

describe('app classification', () => {
  it('apps by the five trusted authors go to support even with a developer link', () => {
    expect(TRUSTED_AUTHOR_IDS).toHaveLength(5);
    for (const userId of TRUSTED_AUTHOR_IDS) {
      const result = classifyApp(app({ support: 'mailto:dev@example.com' }, { author: { userId, verified: true } }), '1.0.0');
      expect(result).toMatchObject({ action: 'contactSupport', supportType: 'contactSupport' });
    }
  });

  it("a support link on the provider's support site goes to support", () => {
    expect(classifyApp(app({ support: 'https://support.hearth.app/hc/apps' }), '1.0.0').action).toBe('contactSupport');
  });

  it('classifies the developer contact way in order: https support, mailto, bugs, community topic, none', () => {
    expect(
      classifyApp(
        app({ support: 'https://dev.example.com', bugs: { url: 'https://github.com/x/issues' }, homeyCommunityTopicId: 5 }),
        '1.0.0',
      ),
    ).toEqual({ action: 'contactDeveloper', supportType: 'website', supportUrl: 'https://dev.example.com', outOfDate: false });
    expect(classifyApp(app({ support: 'mailto:dev@example.com', homeyCommunityTopicId: 5 }), '1.0.0')).toMatchObject({
      supportType: 'email',
      supportUrl: 'mailto:dev@example.com',
    });
    expect(
      classifyApp(app({ support: 'http://insecure.example.com', bugs: { url: 'https://github.com/x/issues' } }), '1.0.0'),
    ).toMatchObject({ supportType: 'bugs', supportUrl: 'https://github.com/x/issues' });
    expect(classifyApp(app({ homeyCommunityTopicId: 1234 }), '1.0.0')).toMatchObject({
      supportType: 'forum',
      supportUrl: 'https://community.hearth.app/t/1234',
    });
    expect(classifyApp(app(), '1.0.0')).toMatchObject({ action: 'contactDeveloper', supportType: 'none' });
    expect(tree.actions.contactDeveloper).toEqual(['knowledgeBase', 'contactDeveloper', 'emailDeveloper']);
    expect(tree.actions.contactSupport).toEqual(['knowledgeBase', 'ticket']);
  });

  it('uses the test build when there is no live build', () => {
    expect(
      classifyApp(app({}, { liveBuild: null, testBuild: { name: 'T', support: 'mailto:t@example.com' } }), '1.0.0').supportType,
    ).toBe('email');
  });

  it('an installed version lower than the live one means updateApp, a final knowledge base', () => {
    expect(classifyApp(app({ support: 'mailto:a@b.c' }, { liveVersion: '1.10.0' }), '1.9.3')).toMatchObject({
      action: 'updateApp',
      outOfDate: true,
    });
    expect(classifyApp(app({}, { liveVersion: '1.10.0' }), '1.10.0').action).toBe('contactDeveloper');
    expect(classifyApp(app({}, { liveVersion: '1.2.0' }), '1.10.0').action).toBe('contactDeveloper');
    expect(tree.actions.updateApp).toEqual(['knowledgeBaseFinal']);
    expect(tree.steps.knowledgeBaseFinal.type).toBe('final');
  });
});

describe('version comparison', () => {
  it('compares numerically, with missing parts as 0 and pre-releases lower', () => {
    expect(compareVersions('1.9.0', '1.10.0')).toBe(-1);
    expect(compareVersions('2.0.0', '1.99.99')).toBe(1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(compareVersions('1.0.0-rc.2', '1.0.0-rc.10')).toBe(-1);
    expect(compareVersions('v3.1.0', '3.1.0')).toBe(0);
  });
});

describe('device classification', () => {
  const lights = app(
    {
      support: 'mailto:dev@example.com',
      drivers: [
        { id: 'bulb', connectivity: ['zigbee', 'ble'] },
        { id: 'plug', connectivity: ['rf433'] },
      ],
    },
    { id: 'com.example.lights' },
  );

  it('reads the app id as the second-to-last part of the driver id', () => {
    expect(appIdOfDevice({ driverId: 'homey:app:com.example.lights:bulb' })).toBe('com.example.lights');
  });

  it('tags the radios of the driver connectivity and of driver-id markers', () => {
    expect(radioTags({ driverId: 'homey:app:com.example.lights:bulb' }, lights).sort()).toEqual(['bluetooth', 'zigbee']);
    expect(radioTags({ driverId: 'homey:app:com.example.lights:plug' }, lights)).toEqual(['433mhz']);
    expect(radioTags({ driverId: 'homey:app:com.example.ir:tv-remote' }, null)).toEqual(['infrared']);
    expect(radioTags({ driverId: 'homey:app:com.example.cam:camera' }, null)).toEqual(['wifi']);
    expect(radioTags({ driverId: 'homey:app:com.example.x:blinds' }, null)).toEqual(['433mhz']);
  });

  it("goes to support when the app's support link is on the provider's site, otherwise to the developer without knowledge base", () => {
    const supported = app({ support: 'https://support.hearth.app/devices', drivers: [{ id: 'bulb', connectivity: ['zwave'] }] });
    expect(classifyDevice({ driverId: 'homey:app:com.example.app:bulb' }, supported)).toMatchObject({
      action: 'contactSupport',
      tags: ['zwave'],
    });
    expect(classifyDevice({ driverId: 'homey:app:com.example.lights:bulb' }, lights)).toMatchObject({
      action: 'contactDeveloperDirect',
      supportType: 'email',
      supportUrl: 'mailto:dev@example.com',
    });
    expect(tree.actions.contactDeveloperDirect).toEqual(['contactDeveloper', 'emailDeveloper']);
  });
});

describe("the catalogue's app answer", () => {
  it('reads support, bugs, topic and drivers from the live build facts or the app, and the author id and flag', async () => {
    const { toAppDetails } = await import('./api/getApp');
    const details = toAppDetails({
      _id: 'com.nordheat',
      id: 'com.nordheat',
      name: { en: 'NordHeat' },
      author: { _id: 'dev-1', name: 'NordHeat AS', verified: true },
      liveVersion: '2.0.0',
      support: 'mailto:support@nordheat.example',
      drivers: [{ id: 'thermostat', connectivity: ['zwave'] }],
      liveBuild: { version: '2.0.0', facts: { name: { en: 'NordHeat' }, support: 'mailto:support@nordheat.example' } },
      testBuild: null,
    });
    expect(details.author).toEqual({ userId: 'dev-1', verified: true });
    expect(details.liveVersion).toBe('2.0.0');
    expect(details.liveBuild?.drivers).toEqual([{ id: 'thermostat', connectivity: ['zwave'] }]);
    expect(classifyApp(details, '2.0.0')).toMatchObject({ action: 'contactDeveloper', supportType: 'email' });
    const forum = toAppDetails({ id: 'x', author: { _id: 'd' }, liveBuild: { facts: { homeyCommunityTopicId: 48213 } } });
    expect(classifyApp(forum, '1.0.0')).toMatchObject({ supportType: 'forum' });
    const bugs = toAppDetails({
      id: 'y',
      author: { _id: 'd' },
      liveBuild: { facts: { bugs: { url: 'https://github.com/a/b/issues' } } },
    });
    expect(classifyApp(bugs, '1.0.0')).toMatchObject({ supportType: 'bugs' });
  });
});
