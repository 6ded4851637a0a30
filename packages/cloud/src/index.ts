export * from './config';
export type { CloudContext, CloudPrincipal, CloudService } from './platform/context';
export * from './server';
export { DEMO_CLIENTS, DEMO_USER, ensureInternalClient, INTERNAL_CLIENT_ID, seedDemoWorld } from './services/cloud/seed';
