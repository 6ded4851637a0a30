export * from './cloud/index';
export * from './errors';
export * from './hub/index';
export * from './list';
export * from './operation';
export * from './provider';
export * from './scopes';
