import { vi } from 'vitest';
import type { Services } from '../app/services';
import type { HubClient } from '../features/hub/api/hub';
import type { AppDetails, Device, Hub, User } from '../types/entities';

export const proHub: Hub = {
  id: 'hub-pro',
  name: 'Home',
  platform: 'local',
  model: 'hearth-pro-5q',
  modelName: 'Hearth Pro (Early 2023)',
  language: 'en',
  region: 'eu',
  licenses: ['zwave'],
  users: [{}, {}],
  bridges: [],
  apps: [
    { id: 'com.example.mail', version: '1.0.0' },
    { id: 'com.example.old', version: '1.2.0' },
  ],
  softwareVersion: '12.1.0',
};

export const cloudHub: Hub = {
  ...proHub,
  id: 'hub-cloud',
  name: 'Studio',
  platform: 'cloud',
  model: 'hearth-cloud',
  modelName: 'Hearth Cloud',
};

export const user: User = {
  id: 'u1',
  firstname: 'Ada',
  lastname: 'Lovelace',
  fullname: 'Ada Lovelace',
  email: 'ada@example.com',
  avatar: null,
  hubs: [proHub, cloudHub],
  subscriptions: [
    { id: 'homey_plus_1', startedAt: '2025-03-01T00:00:00.000Z' },
    { id: 'homey_developer_2', startedAt: '2025-04-01T00:00:00.000Z' },
  ],
};

export const apps: Record<string, AppDetails> = {
  'com.example.mail': {
    id: 'com.example.mail',
    author: { userId: 'dev1', verified: true },
    liveBuild: {
      name: { en: 'Mail Lights' },
      support: 'mailto:dev@example.com',
      drivers: [{ id: 'bulb', connectivity: ['zigbee'] }],
    },
    liveVersion: '1.0.0',
  },
  'com.example.old': {
    id: 'com.example.old',
    author: { userId: 'dev2', verified: false },
    liveBuild: { name: 'Old App', support: 'https://old.example.com' },
    liveVersion: '1.10.0',
  },
};

export const devices: Device[] = [
  { id: 'd1', name: 'Kitchen bulb', driverId: 'homey:app:com.example.mail:bulb' },
  { id: 'd2', name: 'Old thing', driverId: 'homey:app:com.example.old:thing' },
];

export function fakeHubClient(over: Partial<HubClient> = {}): HubClient {
  return {
    getUpdates: vi.fn(async () => [{ version: '12.2.0' }]),
    getInfo: vi.fn(async () => ({
      videoCoreUnderVoltageCurrentlyRatio: 0.25,
      modelName: 'Hearth Pro (Early 2023)',
      region: 'eu',
    })),
    sendLog: vi.fn(async () => 'report-123'),
    getDevices: vi.fn(async () => devices),
    getApps: vi.fn(async () => proHub.apps),
    getAppStd: vi.fn(async () => undefined),
    ...over,
  };
}

export function fakeServices(
  over: Partial<Services> = {},
  hubClient: HubClient = fakeHubClient(),
): Services & { hubClient: HubClient } {
  return {
    init: vi.fn(async () => true),
    signIn: vi.fn(),
    signOut: vi.fn(async () => {}),
    onAuthChange: vi.fn(() => () => {}),
    getUser: vi.fn(async () => user),
    getOrders: vi.fn(async () => [{ id: '1001', date: '2025-05-02T10:00:00.000Z' }]),
    getApp: vi.fn(async (id: string) => {
      const app = apps[id];
      if (!app) throw new Error('not found');
      return app;
    }),
    getArticle: vi.fn(async (id: string) => ({ id, name: `Article ${id}`, html_url: `http://kb.test/${id}` })),
    uploadAttachment: vi.fn(async (file: File, onProgress: (f: number) => void) => {
      onProgress(1);
      return `token-${file.name}`;
    }),
    createTicket: vi.fn(async () => ({ ticketCreated: true, id: 'c0ffee00-0000-4000-8000-000000000001' })),
    hub: vi.fn(() => hubClient),
    cantSignInUrl: 'http://kb.test/cant-sign-in',
    appPageUrl: (appId: string) => `http://cloud.test/app/${appId}`,
    ...over,
    hubClient,
  };
}
