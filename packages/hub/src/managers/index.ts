import type { HubManager } from '../platform/context';
import { alarmsManager } from './alarms';
import { appsManager } from './apps';
import { audioManager } from './audio';
import { backupManager } from './backup';
import { bleManager } from './ble';
import { cloudManager } from './cloud';
import { coprocessorManager } from './coprocessor';
import { dashboardsManager } from './dashboards';
import { databaseManager } from './database';
import { devicesManager } from './devices';
import { devkitManager } from './devkit';
import { driversManager } from './drivers';
import { energyManager } from './energy';
import { experimentsManager } from './experiments';
import { flowManager } from './flow';
import { flowtokenManager } from './flowtoken';
import { geolocationManager } from './geolocation';
import { googleAssistantManager } from './google-assistant';
import { i18nManager } from './i18n';
import { imagesManager } from './images';
import { insightsManager } from './insights';
import { ledringManager } from './ledring';
import { logicManager } from './logic';
import { matterManager } from './matter';
import { mobileManager } from './mobile';
import { moodsManager } from './moods';
import { mqttManager } from './mqtt';
import { notificationsManager } from './notifications';
import { presenceManager } from './presence';
import { reportsManager } from './reports';
import { rfManager } from './rf';
import { sessionsManager } from './sessions';
import { setupManager } from './setup';
import { speechOutputManager } from './speech-output';
import { systemManager } from './system';
import { threadManager } from './thread';
import { updatesManager } from './updates';
import { usersManager } from './users';
import { weatherManager } from './weather';
import { zigbeeManager } from './zigbee';
import { zonesManager } from './zones';
import { zwaveManager } from './zwave';

/** Every manager the hub serves, in start order. Adding a manager means adding it here. */
export const managers: readonly HubManager[] = [
  systemManager,
  usersManager,
  sessionsManager,
  zonesManager,
  i18nManager,
  geolocationManager,
  audioManager,
  ledringManager,
  experimentsManager,
  googleAssistantManager,
  cloudManager,
  databaseManager,
  weatherManager,
  speechOutputManager,
  appsManager,
  driversManager,
  devicesManager,
  insightsManager,
  energyManager,
  imagesManager,
  devkitManager,
  zwaveManager,
  zigbeeManager,
  bleManager,
  rfManager,
  coprocessorManager,
  matterManager,
  mqttManager,
  threadManager,
  alarmsManager,
  logicManager,
  flowtokenManager,
  flowManager,
  moodsManager,
  dashboardsManager,
  notificationsManager,
  presenceManager,
  updatesManager,
  backupManager,
  setupManager,
  mobileManager,
  reportsManager,
];
