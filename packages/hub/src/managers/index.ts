import type { HubManager } from '../platform/context';
import { alarmsManager } from './alarms';
import { audioManager } from './audio';
import { cloudManager } from './cloud';
import { databaseManager } from './database';
import { experimentsManager } from './experiments';
import { flowtokenManager } from './flowtoken';
import { geolocationManager } from './geolocation';
import { googleAssistantManager } from './google-assistant';
import { i18nManager } from './i18n';
import { ledringManager } from './ledring';
import { logicManager } from './logic';
import { speechOutputManager } from './speech-output';
import { systemManager } from './system';
import { weatherManager } from './weather';

/** Every manager the hub serves, in start order. Adding a manager means adding it here. */
export const managers: readonly HubManager[] = [
  systemManager,
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
  alarmsManager,
  logicManager,
  flowtokenManager,
];
