import { cloudAccountOperations } from './cloud';
import { storeOperations } from './store';

/** Every cloud operation, grouped by service. Each service's operations live in their own file. */
export const cloudOperations = {
  cloud: cloudAccountOperations,
  store: storeOperations,
} as const;

export * from './cloud';
export * from './store';
