export { type BuiltPages, builtPagesDirectory, registerBuiltPages } from './built-pages';
export { installErrorHandling, toHearthError } from './errors';
export * from './limits';
export * from './register';
export * from './server';
