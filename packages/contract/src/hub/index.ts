import { alarmsOperations } from './alarms';
import { audioOperations } from './audio';
import { cloudManagerOperations } from './cloud';
import { databaseOperations } from './database';
import { experimentsOperations } from './experiments';
import { flowtokenOperations } from './flowtoken';
import { geolocationOperations } from './geolocation';
import { googleAssistantOperations } from './google-assistant';
import { i18nOperations } from './i18n';
import { ledringOperations } from './ledring';
import { logicOperations } from './logic';
import { speechOutputOperations } from './speech-output';
import { systemOperations } from './system';
import { weatherOperations } from './weather';

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
  alarms: alarmsOperations,
  logic: logicOperations,
  flowtoken: flowtokenOperations,
} as const;

export * from './alarms';
export * from './audio';
export * from './cloud';
export * from './database';
export * from './experiments';
export * from './flowtoken';
export * from './geolocation';
export * from './google-assistant';
export * from './i18n';
export * from './ledring';
export * from './logic';
export * from './speech-output';
export * from './system';
export * from './weather';
