export { installErrorHandling, toHearthError } from './errors';
export * from './register';
export * from './server';
