import type { OperationExamples } from '../operation';

/**
 * Example calls the API reference shows for the cloud's most used operations: the signed-in user, a hub and the
 * app catalogue, shaped as the cloud answers them (ids, addresses and apps are illustrative). `examples.test.ts`
 * checks each against its operation's schemas.
 */

const userId = '5f3a9c1e8b2d4e6f7a8b9c0d';
const hubId = '6a1b2c3d4e5f60718293a4b5';
const created = '2026-03-14T09:26:53.000Z';

const hub = {
  _id: hubId,
  id: hubId,
  name: 'Home',
  apiVersion: 3,
  platform: 'local',
  softwareVersion: '12.4.0',
  language: 'en',
  role: 'owner',
  model: 'hearth-pro-5q',
  modelName: 'Hearth Pro',
  region: 'eu',
  localUrl: 'http://192.168.1.20',
  localUrlSecure: `https://192-168-1-20.${hubId}.hearth.test`,
  remoteUrl: `https://${hubId}.connect.hearth.test`,
  state: 'online',
  users: [{ _id: userId, role: 'owner' }],
  licenses: [],
  notifications: { push: true, email: false },
  serial: 'HP5Q-2603-0142',
  activatedAt: created,
};

export const cloudUserExamples = {
  getAuthenticatedUser: {
    response: {
      _id: userId,
      id: userId,
      email: 'dana@example.com',
      firstname: 'Dana',
      lastname: 'Demo',
      fullname: 'Dana Demo',
      language: 'en',
      roleIds: [],
      roles: [],
      homeys: [hub],
      devices: [
        {
          _id: '65d2e8a1f0b3c4d5e6f70819',
          id: '65d2e8a1f0b3c4d5e6f70819',
          name: "Dana's phone",
          platform: 'android',
          appVersion: '3.2.0',
          osVersion: '15',
          devmode: false,
          created: '2026-03-14T09:40:12.000Z',
          updated: '2026-11-20T07:02:45.000Z',
        },
      ],
      subscriptions: {},
      createdAt: created,
      emailVerified: true,
      twoFactorEnabled: false,
    },
  },
  getHomey: { params: { id: hubId }, response: hub },
} satisfies Record<string, OperationExamples>;

const author = { _id: '64b7f0c2a9e3d1b5c7f80912', name: 'Weather Works', verified: true };
const weatherStation = {
  _id: 'com.openweather.station',
  id: 'com.openweather.station',
  name: { en: 'Weather Station', nl: 'Weerstation' },
  description: { en: 'Temperature, humidity and light from your weather station.' },
  brandColor: '#1E88E5',
  icon: '/apps/app/com.openweather.station/icon.svg',
  author,
  category: ['climate'],
  platforms: ['local'],
  liveVersion: '2.1.0',
  testVersion: null,
  support: 'mailto:support@weatherworks.example',
  drivers: [{ id: 'station', name: { en: 'Weather station' }, class: 'sensor', connectivity: ['cloud'] }],
  rating: { average: 4.6, count: 38 },
  installs: 1204,
  highlighted: false,
  createdAt: '2025-06-02T12:00:00.000Z',
  updatedAt: '2026-10-18T08:30:00.000Z',
};
const sonos = {
  ...weatherStation,
  _id: 'com.sonos',
  id: 'com.sonos',
  name: 'Sonos',
  description: 'Play music and announcements on your Sonos speakers.',
  brandColor: '#000000',
  icon: '/apps/app/com.sonos/icon.svg',
  author: { _id: '64b7f0c2a9e3d1b5c7f80977', name: 'Sonos community', verified: false },
  category: ['music'],
  liveVersion: '5.0.3',
  drivers: [{ id: 'speaker', name: 'Speaker', class: 'speaker', connectivity: ['lan'] }],
  rating: { average: 4.2, count: 112 },
  installs: 5310,
  createdAt: '2024-11-20T10:00:00.000Z',
  updatedAt: '2026-11-02T16:45:00.000Z',
};

export const appsExamples = {
  getApps: { query: { page: 1, count: 20 }, response: [weatherStation, sonos] },
  getApp: {
    params: { appId: 'com.openweather.station' },
    response: {
      ...weatherStation,
      liveBuild: {
        _id: 57,
        id: 57,
        appId: 'com.openweather.station',
        version: '2.1.0',
        channel: 'stable',
        changelog: { '2.1.0': { en: 'Reads light levels too.' } },
        readme: { en: 'Adds your weather station to Hearth.' },
        icon: '/apps/app/com.openweather.station/icon.svg',
        drivers: weatherStation.drivers,
        facts: null,
        archive: {
          _id: '6710c3e2b4a5968778695a4b',
          state: 'ready',
          error: null,
          hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          size: 48213,
          assetsId: null,
          manifest: null,
          uploadUrl: '/apps/archive/6710c3e2b4a5968778695a4b',
        },
        submission: null,
        createdAt: '2026-10-17T14:02:00.000Z',
        publishedAt: '2026-10-18T08:30:00.000Z',
      },
      testBuild: null,
    },
  },
} satisfies Record<string, OperationExamples>;
