export * from './config';
export type { HubContext, HubManager, HubPrincipal } from './platform/context';
export * from './server';
