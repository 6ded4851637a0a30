import { speechOutputOperations } from './speech-output';
import { weatherOperations } from './weather';
import { databaseOperations } from './database';
import { cloudManagerOperations } from './cloud';
import { googleAssistantOperations } from './google-assistant';
import { experimentsOperations } from './experiments';
import { ledringOperations } from './ledring';
import { audioOperations } from './audio';
import { geolocationOperations } from './geolocation';
import { i18nOperations } from './i18n';
import { systemOperations } from './system';

/** Every hub operation, grouped by manager. Each manager's operations live in their own file. */
export const hubOperations = {
  system: systemOperations,
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
} as const;

export * from './system';
export * from './i18n';
export * from './geolocation';
export * from './audio';
export * from './ledring';
export * from './experiments';
export * from './google-assistant';
export * from './cloud';
export * from './database';
export * from './weather';
export * from './speech-output';
