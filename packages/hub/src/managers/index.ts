import { speechOutputManager } from './speech-output';
import { weatherManager } from './weather';
import { databaseManager } from './database';
import { cloudManager } from './cloud';
import { googleAssistantManager } from './google-assistant';
import { experimentsManager } from './experiments';
import { ledringManager } from './ledring';
import { audioManager } from './audio';
import { geolocationManager } from './geolocation';
import { i18nManager } from './i18n';
import type { HubManager } from '../platform/context';
import { systemManager } from './system';

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
];
