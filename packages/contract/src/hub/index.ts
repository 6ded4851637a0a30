import { alarmsOperations } from './alarms';
import { appsManagerOperations } from './apps';
import { audioOperations } from './audio';
import { backupOperations } from './backup';
import { bleOperations } from './ble';
import { cloudManagerOperations } from './cloud';
import { coprocessorOperations } from './coprocessor';
import { dashboardsOperations } from './dashboards';
import { databaseOperations } from './database';
import { devicesOperations } from './devices';
import { devkitOperations } from './devkit';
import { driversOperations } from './drivers';
import { energyOperations } from './energy';
import { experimentsOperations } from './experiments';
import { flowOperations } from './flow';
import { flowtokenOperations } from './flowtoken';
import { geolocationOperations } from './geolocation';
import { googleAssistantOperations } from './google-assistant';
import { i18nOperations } from './i18n';
import { imagesOperations } from './images';
import { insightsOperations } from './insights';
import { ledringOperations } from './ledring';
import { logicOperations } from './logic';
import { matterOperations } from './matter';
import { mobileOperations } from './mobile';
import { moodsOperations } from './moods';
import { notificationsOperations } from './notifications';
import { presenceOperations } from './presence';
import { reportsOperations } from './reports';
import { rfOperations } from './rf';
import { sessionsOperations } from './sessions';
import { speechOutputOperations } from './speech-output';
import { systemOperations } from './system';
import { threadOperations } from './thread';
import { updatesOperations } from './updates';
import { usersOperations } from './users';
import { weatherOperations } from './weather';
import { zigbeeOperations } from './zigbee';
import { zonesOperations } from './zones';
import { zwaveOperations } from './zwave';

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
