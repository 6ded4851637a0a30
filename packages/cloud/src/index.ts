export * from './config';
export type { CloudContext, CloudPrincipal } from './platform/context';
export * from './server';
export { DEMO_CLIENTS, DEMO_USER, ensureInternalClient, INTERNAL_CLIENT_ID, seedDemoWorld } from './services/cloud/seed';
export type { CloudService, CloudServiceInstance, CloudServices } from './services/service';
