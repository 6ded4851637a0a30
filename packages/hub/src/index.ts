export * from './config';
export type { HubContext, HubManager, HubPrincipal } from './platform/context';
export type { HubServices } from './runtime/services';
export * from './server';
