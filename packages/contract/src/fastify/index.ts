export { type BuiltPages, builtPagesDirectory, registerBuiltPages } from './built-pages';
export { installErrorHandling, toHearthError } from './errors';
export * from './limits';
export { clientAddressOf, type TrustProxy, trustedProxy } from './proxy-trust';
export { logoSvg } from './reference/browser';
export * from './register';
export * from './server';
