export { installErrorHandling, toHearthError } from './errors';
export * from './limits';
export * from './register';
export * from './server';
