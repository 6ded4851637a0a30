import { resolve } from 'node:path';

export interface CloudConfig {
  host: string;
  port: number;
  /** The address people and hubs reach the cloud at, e.g. `http://127.0.0.1:4000`. */
  publicUrl: string;
  databaseUrl: string | null;
  /** Directory for the embedded database and stored files. */
  dataDir: string;
  databaseSchema: string;
  logLevel: string;
}

export const CLOUD_VERSION = '0.1.0';

/** Reads the cloud's configuration from environment variables (listed in the README). */
export function cloudConfigFromEnv(env: NodeJS.ProcessEnv = process.env): CloudConfig {
  const host = env.CLOUD_HOST ?? '127.0.0.1';
  const port = Number(env.CLOUD_PORT ?? 4000);
  return {
    host,
    port,
    publicUrl: env.CLOUD_PUBLIC_URL ?? `http://${host}:${port}`,
    databaseUrl: env.DATABASE_URL || null,
    dataDir: resolve(env.HEARTH_DATA_DIR ?? '.data', 'cloud'),
    databaseSchema: env.DATABASE_SCHEMA ?? 'public',
    logLevel: env.LOG_LEVEL ?? 'warn',
  };
}

export function checkCloudConfig(config: CloudConfig): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535)
    problems.push(`CLOUD_PORT must be 0–65535, got ${config.port}`);
  if (!/^https?:\/\//.test(config.publicUrl)) problems.push(`CLOUD_PUBLIC_URL must be an http(s) URL, got "${config.publicUrl}"`);
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl))
    problems.push('DATABASE_URL must be a postgres:// URL');
  return problems;
}
