export * from './frames';
export * from './session';
export * from './sink';
