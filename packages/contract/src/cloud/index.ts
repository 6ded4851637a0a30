import { accountOperations } from './account';
import { appsOperations } from './apps';
import { backupServiceOperations } from './backup';
import { callbackOperations } from './callback';
import { cloudAccountOperations } from './cloud';
import { flowShareOperations } from './flowshare';
import { geolocateOperations } from './geolocate';
import { helpdeskOperations } from './helpdesk';
import { householdOperations } from './household';
import { iconsOperations } from './icons';
import { regionOperations } from './region';
import { setupOperations } from './setup';
import { storeOperations } from './store';
import { updateOperations } from './update';
import { cloudWeatherOperations } from './weather';
import { webhooksOperations } from './webhooks';

/** Every cloud operation, grouped by service. Each service's operations live in their own file. */
export const cloudOperations = {
  cloud: { ...cloudAccountOperations, ...accountOperations, ...householdOperations },
  apps: appsOperations,
  store: storeOperations,
  helpdesk: helpdeskOperations,
  callback: callbackOperations,
  icons: iconsOperations,
  region: regionOperations,
  weather: cloudWeatherOperations,
  geolocate: geolocateOperations,
  update: updateOperations,
  flow: flowShareOperations,
  backup: backupServiceOperations,
  webhooks: webhooksOperations,
  setup: setupOperations,
} as const;

export * from './account';
export * from './apps';
export * from './backup';
export * from './callback';
export * from './cloud';
export * from './flowshare';
export * from './geolocate';
export * from './helpdesk';
export * from './household';
export * from './icons';
export * from './region';
export * from './setup';
export * from './store';
export * from './update';
export * from './weather';
export * from './webhooks';
