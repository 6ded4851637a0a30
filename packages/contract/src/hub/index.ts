import { alarmsEvents, alarmsOperations } from './alarms';
import { appsEvents, appsManagerOperations } from './apps';
import { audioEvents, audioOperations } from './audio';
import { backupEvents, backupOperations } from './backup';
import { bleOperations } from './ble';
import { cloudManagerOperations } from './cloud';
import { coprocessorOperations } from './coprocessor';
import { dashboardsEvents, dashboardsOperations } from './dashboards';
import { databaseOperations } from './database';
import { devicesEvents, devicesOperations } from './devices';
import { devkitEvents, devkitOperations } from './devkit';
import { driversEvents, driversOperations } from './drivers';
import { energyEvents, energyOperations } from './energy';
import { experimentsEvents, experimentsOperations } from './experiments';
import { flowEvents, flowOperations } from './flow';
import { flowtokenEvents, flowtokenOperations } from './flowtoken';
import { geolocationEvents, geolocationOperations } from './geolocation';
import { googleAssistantEvents, googleAssistantOperations } from './google-assistant';
import { i18nEvents, i18nOperations } from './i18n';
import { imagesEvents, imagesOperations } from './images';
import { insightsEvents, insightsOperations } from './insights';
import { ledringEvents, ledringOperations } from './ledring';
import { logicEvents, logicOperations } from './logic';
import { matterEvents, matterOperations } from './matter';
import { mobileEvents, mobileOperations } from './mobile';
import { moodsEvents, moodsOperations } from './moods';
import { notificationsEvents, notificationsOperations } from './notifications';
import { presenceEvents, presenceOperations } from './presence';
import { reportsOperations } from './reports';
import { rfOperations } from './rf';
import { sessionsEvents, sessionsOperations } from './sessions';
import { speechOutputEvents, speechOutputOperations } from './speech-output';
import { systemEvents, systemOperations } from './system';
import { threadOperations } from './thread';
import { updatesEvents, updatesOperations } from './updates';
import { usersEvents, usersOperations } from './users';
import { weatherOperations } from './weather';
import { zigbeeOperations } from './zigbee';
import { zonesEvents, zonesOperations } from './zones';
import { zwaveEvents, zwaveOperations } from './zwave';

/** Every hub operation, grouped by manager. Each manager's operations live in their own file. */
export const hubOperations = {
  sessions: sessionsOperations,
  system: systemOperations,
  users: usersOperations,
  zones: zonesOperations,
  i18n: i18nOperations,
  geolocation: geolocationOperations,
  audio: audioOperations,
  ledring: ledringOperations,
  experiments: experimentsOperations,
  'google-assistant': googleAssistantOperations,
  cloud: cloudManagerOperations,
  database: databaseOperations,
  weather: weatherOperations,
  'speech-output': speechOutputOperations,
  apps: appsManagerOperations,
  drivers: driversOperations,
  devices: devicesOperations,
  insights: insightsOperations,
  energy: energyOperations,
  images: imagesOperations,
  devkit: devkitOperations,
  zwave: zwaveOperations,
  zigbee: zigbeeOperations,
  ble: bleOperations,
  rf: rfOperations,
  coprocessor: coprocessorOperations,
  matter: matterOperations,
  thread: threadOperations,
  alarms: alarmsOperations,
  logic: logicOperations,
  flowtoken: flowtokenOperations,
  flow: flowOperations,
  moods: moodsOperations,
  dashboards: dashboardsOperations,
  notifications: notificationsOperations,
  presence: presenceOperations,
  updates: updatesOperations,
  backup: backupOperations,
  mobile: mobileOperations,
  reports: reportsOperations,
} as const;

/**
 * Every hub manager's wire events (those that publish any), by manager: declared in each manager's file beside
 * its operations (see `../events.ts`).
 */
export const hubEvents = {
  alarms: alarmsEvents,
  apps: appsEvents,
  audio: audioEvents,
  backup: backupEvents,
  dashboards: dashboardsEvents,
  devices: devicesEvents,
  devkit: devkitEvents,
  drivers: driversEvents,
  energy: energyEvents,
  experiments: experimentsEvents,
  flow: flowEvents,
  flowtoken: flowtokenEvents,
  geolocation: geolocationEvents,
  'google-assistant': googleAssistantEvents,
  i18n: i18nEvents,
  images: imagesEvents,
  insights: insightsEvents,
  ledring: ledringEvents,
  logic: logicEvents,
  matter: matterEvents,
  mobile: mobileEvents,
  moods: moodsEvents,
  notifications: notificationsEvents,
  presence: presenceEvents,
  sessions: sessionsEvents,
  'speech-output': speechOutputEvents,
  system: systemEvents,
  updates: updatesEvents,
  users: usersEvents,
  zones: zonesEvents,
  zwave: zwaveEvents,
} as const;

export * from './alarms';
export * from './apps';
export * from './audio';
export * from './backup';
export * from './ble';
export * from './cloud';
export * from './coprocessor';
export * from './dashboards';
export * from './database';
export * from './devices';
export * from './devkit';
export * from './drivers';
export * from './energy';
export * from './experiments';
export * from './flow';
export * from './flowtoken';
export * from './geolocation';
export * from './google-assistant';
export * from './i18n';
export * from './images';
export * from './insights';
export * from './ledring';
export * from './logic';
export * from './matter';
export * from './mobile';
export * from './moods';
export * from './notifications';
export * from './options';
export * from './presence';
export * from './reports';
export * from './rf';
export * from './sessions';
export * from './speech-output';
export * from './system';
export * from './thread';
export * from './updates';
export * from './users';
export * from './weather';
export * from './zigbee';
export * from './zones';
export * from './zwave';
