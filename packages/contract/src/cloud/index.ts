import { cloudAccountOperations } from './cloud';

/** Every cloud operation, grouped by service. Each service's operations live in their own file. */
export const cloudOperations = {
  cloud: cloudAccountOperations,
} as const;

export * from './cloud';
