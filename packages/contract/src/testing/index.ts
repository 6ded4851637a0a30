export * from './bad-input';
export * from './from-address';
export * from './localhost-names';
export * from './operations';
export * from './skipping-clock';
export * from './source-files';
