export * from './bad-input';
export * from './from-address';
export * from './operations';
