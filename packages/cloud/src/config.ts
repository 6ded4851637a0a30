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
  /** SMTP server mail is sent through (`smtp://host:port`); when absent the cloud runs a local SMTP sink. */
  smtpUrl: string | null;
  /** Sender address of the cloud's mail. */
  mailFrom: string;
  /**
   * Secret of the internal client (`hearth-internal`): the platform's own services and the start orchestrator
   * use it (client credentials grant) for private operations. No internal client exists when absent.
   */
  internalClientSecret: string | null;
  /** Lifetime of access tokens in seconds. */
  accessTokenLifetime: number;
  /** Lifetime of refresh tokens in seconds. */
  refreshTokenLifetime: number;
  /** When set, the demo world (ARCHITECTURE.md) is seeded at start with these hubs; seeding is idempotent. */
  demoHubs: DemoHub[] | null;
  /** The region this cloud serves, answered by `GET /region/` (`HEARTH_REGION`, default `eu`). */
  region: string;
  /** Secret monitors send to read `GET /region/api/system/status` (`HEARTH_STATUS_SECRET`); unpublished when absent. */
  statusSecret?: string | null;
  /** Lets the icon service fetch from loopback and private addresses (`HEARTH_ICONS_ALLOW_PRIVATE_URLS=1`; dev only). */
  iconsAllowPrivateUrls?: boolean;
}

/** A demo hub as the start script passes it (`HEARTH_DEMO_HUBS`). */
export interface DemoHub {
  id: string;
  name: string;
  model: string;
  url: string;
}

export const CLOUD_VERSION = '0.1.0';
export const DEFAULT_REGION = 'eu';

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
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Hearth <no-reply@hearth.test>',
    internalClientSecret: env.HEARTH_INTERNAL_CLIENT_SECRET || null,
    accessTokenLifetime: Number(env.CLOUD_ACCESS_TOKEN_LIFETIME ?? 3600),
    refreshTokenLifetime: Number(env.CLOUD_REFRESH_TOKEN_LIFETIME ?? 60 * 60 * 24 * 30),
    demoHubs: env.HEARTH_DEMO === '1' ? parseDemoHubs(env.HEARTH_DEMO_HUBS) : null,
    region: env.HEARTH_REGION || DEFAULT_REGION,
    statusSecret: env.HEARTH_STATUS_SECRET || null,
    iconsAllowPrivateUrls: env.HEARTH_ICONS_ALLOW_PRIVATE_URLS === '1',
  };
}

function parseDemoHubs(text: string | undefined): DemoHub[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as DemoHub[]) : [];
  } catch {
    throw new Error('HEARTH_DEMO_HUBS must be a JSON array of {id, name, model, url}');
  }
}

export function checkCloudConfig(config: CloudConfig): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535)
    problems.push(`CLOUD_PORT must be 0–65535, got ${config.port}`);
  if (!/^https?:\/\//.test(config.publicUrl)) problems.push(`CLOUD_PUBLIC_URL must be an http(s) URL, got "${config.publicUrl}"`);
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl))
    problems.push('DATABASE_URL must be a postgres:// URL');
  if (config.smtpUrl && !/^smtps?:\/\//.test(config.smtpUrl)) problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  if (config.internalClientSecret !== null && config.internalClientSecret.length < 16)
    problems.push('HEARTH_INTERNAL_CLIENT_SECRET must be at least 16 characters');
  for (const [name, value] of [
    ['CLOUD_ACCESS_TOKEN_LIFETIME', config.accessTokenLifetime],
    ['CLOUD_REFRESH_TOKEN_LIFETIME', config.refreshTokenLifetime],
  ] as const)
    if (!Number.isInteger(value) || value < 1) problems.push(`${name} must be a positive number of seconds, got ${value}`);
  for (const hub of config.demoHubs ?? [])
    if (!/^[0-9a-f]{24}$/.test(String(hub?.id)) || typeof hub.url !== 'string' || typeof hub.name !== 'string')
      problems.push(`HEARTH_DEMO_HUBS: each hub needs a 24-hex id, a name and a url, got ${JSON.stringify(hub)}`);
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(config.region))
    problems.push(`HEARTH_REGION must be lower-case letters, digits and dashes, got "${config.region}"`);
  if (config.statusSecret && config.statusSecret.length < 16)
    problems.push('HEARTH_STATUS_SECRET must be at least 16 characters');
  return problems;
}
