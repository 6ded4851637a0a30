import type { Migration } from 'kysely';

/**
 * Every migration of the cloud, keyed by a name that sorts in application order
 * (`<yyyymmdd>-<nn>-<service>-<what>`). Migrations are code and never change once landed.
 */
export const migrations: Record<string, Migration> = {};
