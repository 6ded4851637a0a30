export * from './config';
export type { CloudContext, CloudPrincipal, CloudService } from './platform/context';
export * from './server';
