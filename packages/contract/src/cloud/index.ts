import { appsOperations } from './apps';
import { callbackOperations } from './callback';
import { cloudAccountOperations } from './cloud';
import { helpdeskOperations } from './helpdesk';
import { iconsOperations } from './icons';
import { regionOperations } from './region';
import { storeOperations } from './store';

/** Every cloud operation, grouped by service. Each service's operations live in their own file. */
export const cloudOperations = {
  cloud: cloudAccountOperations,
  apps: appsOperations,
  store: storeOperations,
  helpdesk: helpdeskOperations,
  callback: callbackOperations,
  icons: iconsOperations,
  region: regionOperations,
} as const;

export * from './apps';
export * from './callback';
export * from './cloud';
export * from './helpdesk';
export * from './icons';
export * from './region';
export * from './store';
