export * from './config';
export type { HubContext, HubManager, HubPrincipal } from './platform/context';
export { hubRuntime } from './runtime';
export * from './server';
