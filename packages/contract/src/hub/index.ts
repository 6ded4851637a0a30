import { systemOperations } from './system';

/** Every hub operation, grouped by manager. Each manager's operations live in their own file. */
export const hubOperations = {
  system: systemOperations,
} as const;

export * from './system';
