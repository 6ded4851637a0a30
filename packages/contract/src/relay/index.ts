export * from './frames';
export * from './session';
