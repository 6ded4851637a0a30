import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BACKUP_LIMITS } from '@hearth/contract';
import { type RateLimits, rateLimitProblems, rateLimitsFromEnv } from '@hearth/contract/fastify';
import type { BlobStoreConfig } from './platform/blob-store';

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
  /**
   * Divides the periods of the background sweeps (`HEARTH_SWEEP_SPEEDUP`, default 1): for soak tests, which run
   * hours of them in a minute.
   */
  sweepSpeedup?: number;
  /** SMTP server mail is sent through (`smtp://host:port`); when absent the cloud runs a local SMTP sink. */
  smtpUrl: string | null;
  /** Sender address of the cloud's mail. */
  mailFrom: string;
  /**
   * Serve the local SMTP sink's mail as a page at `/dev/mail` (the demo: `HEARTH_DEMO=1`). Only ever served when
   * no SMTP server is configured, and only to requests made on this machine (see services/mail/dev-mailbox.ts).
   */
  devMailbox?: boolean;
  /**
   * Secret of the internal client (`hearth-internal`): the platform's own services and the start orchestrator
   * use it (client credentials grant) for private operations. No internal client exists when absent.
   */
  internalClientSecret: string | null;
  /**
   * Key of the sign-in forms' CSRF tokens (`CLOUD_SIGNIN_SECRET`, at least 32 characters), the same on every node;
   * when absent the first node makes one and keeps it in the database for the others.
   */
  signInSecret?: string | null;
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
  /** The store's secret for internal calls, address data and receipt root (`HEARTH_STORE_*`, see services/store). */
  store?: StoreConfig;
  /** Lets the icon service fetch from loopback and private addresses (`HEARTH_ICONS_ALLOW_PRIVATE_URLS=1`; dev only). */
  iconsAllowPrivateUrls?: boolean;
  /**
   * Token a scraper elsewhere sends as `Authorization: Bearer` to read `/metrics` (`HEARTH_METRICS_TOKEN`); without
   * it only direct requests from loopback are served.
   */
  metricsToken?: string | null;
  /**
   * Redis holding the rate limits' and sign-in throttle's counters (`REDIS_URL`), shared by every cloud node on
   * the same database schema; without it they live in this process.
   */
  redisUrl?: string | null;
  /** Requests per token and per address of the API (`HEARTH_RATE_LIMIT_*`); the defaults when unset. */
  rateLimits?: RateLimits;
  /**
   * The proxies in front of the cloud whose `X-Forwarded-For` names the client (`CLOUD_TRUST_PROXY`: `true` for
   * any, or comma-separated addresses and CIDR ranges). Unset, every request counts as from its peer.
   */
  trustProxy?: boolean | string;
  /**
   * Where `GET /weather` takes the weather from (`HEARTH_WEATHER_PROVIDER`): the cloud's model of a typical day
   * (`model`, the default: no network, labelled as a model in every answer) or Open-Meteo's forecast API
   * (`open-meteo`, at `HEARTH_WEATHER_URL`, `https://api.open-meteo.com` unless told).
   */
  weather?: { provider: 'model' | 'open-meteo'; url: string };
  /**
   * Where blobs (backup archives) are kept: an S3-compatible bucket (`HEARTH_S3_BUCKET` and the other
   * `HEARTH_S3_*`), else the folder `blobs/` under the data directory.
   */
  blobStore?: BlobStoreConfig | null;
  /**
   * The connect relay (`/connect`): `url` is a hub's relay origin with `{id}` for its id (`CLOUD_CONNECT_URL`, e.g.
   * `https://{id}.connect.example.com`; default `<id>.connect.localhost` on the cloud's port); the others are the
   * tunnels' heartbeat and each hub's budget through the relay (`HEARTH_RELAY_REQUESTS_PER_MINUTE`, open requests).
   */
  connect?: {
    url?: string;
    heartbeatMs?: number;
    requestsPerMinute?: number;
    maxStreams?: number;
    /** Requests without credentials one address may send one hub per minute (`HEARTH_RELAY_ANONYMOUS_PER_ADDRESS`). */
    anonymousPerAddressPerMinute?: number;
    /** Requests without credentials one hub may receive per minute from everyone (`HEARTH_RELAY_ANONYMOUS_PER_MINUTE`). */
    anonymousPerMinute?: number;
    /** Requests without credentials one hub may have open at once. */
    anonymousMaxStreams?: number;
    /**
     * Upgraded connections (socket.io's WebSocket) one hub may have open through the relay at once, and one client
     * address to one hub: apart from the requests' streams, so sockets held open never take the owners' share.
     */
    maxUpgrades?: number;
    upgradesPerAddress?: number;
    /** How long a relayed request's body may take to arrive whole, in ms (`HEARTH_RELAY_BODY_TIMEOUT_MS`). */
    bodyTimeoutMs?: number;
    /**
     * Where the other nodes reach this one to hand it requests for the tunnels it holds (`CLOUD_NODE_URL`, an
     * internal address; default: the address it listens on, loopback for a wildcard).
     */
    nodeUrl?: string;
  };
  /** Complete backups kept per hub (`HEARTH_BACKUP_RETENTION`); the oldest beyond are removed. */
  backupRetention?: number;
  /** The largest backup archive accepted, in bytes (`HEARTH_BACKUP_MAX_BYTES`). */
  backupMaxBytes?: number;
  /** First retry of a failed webhook delivery to a hub, in ms, doubling after (`HEARTH_WEBHOOK_RETRY_MS`; 5000). */
  webhookRetryBaseMs?: number;
  /**
   * Push to subscriptions at loopback and private addresses (`HEARTH_PUSH_ALLOW_PRIVATE=1`; tests and local
   * development only): a push endpoint is an address a user registered, so the cloud refuses internal ones.
   */
  pushAllowPrivateEndpoints?: boolean;
  /** Certificates (PEM) trusted for push services besides the system's (`HEARTH_PUSH_CA_FILE`): a private push service. */
  pushCa?: string | null;
}

/** A demo hub as the start script passes it (`HEARTH_DEMO_HUBS`). */
export interface DemoHub {
  id: string;
  name: string;
  model: string;
  url: string;
}

export interface StoreConfig {
  /** Sent as `?secret=` by the platform's own services to create offers and coupons and list expired subscriptions. */
  secret?: string | null;
  /** A CSV file of addresses (`country,zipcode,number,street,city`) the embedded zipcode lookup answers from. */
  zipcodeFile?: string | null;
  /** PEM certificate app-store receipts must chain to (`POST /store/subscription/verify`); none is trusted without it. */
  receiptRootCertificate?: string | null;
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
    sweepSpeedup: Number(env.HEARTH_SWEEP_SPEEDUP || 1),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Hearth <no-reply@hearth.test>',
    devMailbox: env.HEARTH_DEMO === '1' && !env.SMTP_URL,
    internalClientSecret: env.HEARTH_INTERNAL_CLIENT_SECRET || null,
    signInSecret: env.CLOUD_SIGNIN_SECRET || null,
    accessTokenLifetime: Number(env.CLOUD_ACCESS_TOKEN_LIFETIME ?? 3600),
    refreshTokenLifetime: Number(env.CLOUD_REFRESH_TOKEN_LIFETIME ?? 60 * 60 * 24 * 30),
    demoHubs: env.HEARTH_DEMO === '1' ? parseDemoHubs(env.HEARTH_DEMO_HUBS) : null,
    region: env.HEARTH_REGION || DEFAULT_REGION,
    statusSecret: env.HEARTH_STATUS_SECRET || null,
    iconsAllowPrivateUrls: env.HEARTH_ICONS_ALLOW_PRIVATE_URLS === '1',
    store: {
      secret: env.HEARTH_STORE_SECRET || null,
      zipcodeFile: env.HEARTH_STORE_ZIPCODE_FILE || null,
      receiptRootCertificate: env.HEARTH_STORE_RECEIPT_ROOT || null,
    },
    metricsToken: env.HEARTH_METRICS_TOKEN || null,
    redisUrl: env.REDIS_URL || null,
    rateLimits: rateLimitsFromEnv(env),
    trustProxy: parseTrustProxy(env.CLOUD_TRUST_PROXY),
    weather: {
      provider: (env.HEARTH_WEATHER_PROVIDER || 'model') as 'model' | 'open-meteo',
      url: env.HEARTH_WEATHER_URL || 'https://api.open-meteo.com',
    },
    blobStore: blobStoreFromEnv(env),
    connect: {
      ...(env.CLOUD_CONNECT_URL ? { url: env.CLOUD_CONNECT_URL } : {}),
      ...(env.CLOUD_NODE_URL ? { nodeUrl: env.CLOUD_NODE_URL } : {}),
      ...(env.HEARTH_RELAY_REQUESTS_PER_MINUTE ? { requestsPerMinute: Number(env.HEARTH_RELAY_REQUESTS_PER_MINUTE) } : {}),
      ...(env.HEARTH_RELAY_ANONYMOUS_PER_ADDRESS
        ? { anonymousPerAddressPerMinute: Number(env.HEARTH_RELAY_ANONYMOUS_PER_ADDRESS) }
        : {}),
      ...(env.HEARTH_RELAY_ANONYMOUS_PER_MINUTE ? { anonymousPerMinute: Number(env.HEARTH_RELAY_ANONYMOUS_PER_MINUTE) } : {}),
      ...(env.HEARTH_RELAY_BODY_TIMEOUT_MS ? { bodyTimeoutMs: Number(env.HEARTH_RELAY_BODY_TIMEOUT_MS) } : {}),
    },
    backupRetention: Number(env.HEARTH_BACKUP_RETENTION || BACKUP_LIMITS.defaultRetention),
    backupMaxBytes: Number(env.HEARTH_BACKUP_MAX_BYTES || BACKUP_LIMITS.defaultMaxBytes),
    pushAllowPrivateEndpoints: env.HEARTH_PUSH_ALLOW_PRIVATE === '1',
    pushCa: env.HEARTH_PUSH_CA_FILE ? readFileSync(env.HEARTH_PUSH_CA_FILE, 'utf8') : null,
    ...(env.HEARTH_WEBHOOK_RETRY_MS ? { webhookRetryBaseMs: Number(env.HEARTH_WEBHOOK_RETRY_MS) } : {}),
  };
}

/** An S3-compatible bucket when `HEARTH_S3_BUCKET` is set; otherwise `null` (the data directory's folder). */
function blobStoreFromEnv(env: NodeJS.ProcessEnv): BlobStoreConfig | null {
  if (!env.HEARTH_S3_BUCKET) return null;
  return {
    kind: 's3',
    bucket: env.HEARTH_S3_BUCKET,
    ...(env.HEARTH_S3_ENDPOINT ? { endpoint: env.HEARTH_S3_ENDPOINT } : {}),
    region: env.HEARTH_S3_REGION || 'us-east-1',
    accessKeyId: env.HEARTH_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.HEARTH_S3_SECRET_ACCESS_KEY ?? '',
    ...(env.HEARTH_S3_PREFIX ? { prefix: env.HEARTH_S3_PREFIX } : {}),
    forcePathStyle: env.HEARTH_S3_FORCE_PATH_STYLE === '1',
  };
}

function parseTrustProxy(text: string | undefined): boolean | string {
  if (!text || text === 'false') return false;
  return text === 'true' ? true : text;
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
  if (config.signInSecret && config.signInSecret.length < 32) problems.push('CLOUD_SIGNIN_SECRET must be at least 32 characters');
  if (config.sweepSpeedup !== undefined && !(Number.isFinite(config.sweepSpeedup) && config.sweepSpeedup >= 1))
    problems.push(`HEARTH_SWEEP_SPEEDUP must be a number of at least 1, got ${config.sweepSpeedup}`);
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
  if (config.metricsToken && config.metricsToken.length < 16)
    problems.push('HEARTH_METRICS_TOKEN must be at least 16 characters');
  if (config.redisUrl && !/^rediss?:\/\//.test(config.redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  problems.push(...rateLimitProblems(config.rateLimits));
  if (config.weather && !['model', 'open-meteo'].includes(config.weather.provider))
    problems.push(`HEARTH_WEATHER_PROVIDER must be model or open-meteo, got "${config.weather.provider}"`);
  if (config.weather && !/^https?:\/\//.test(config.weather.url)) problems.push('HEARTH_WEATHER_URL must be an http(s) URL');
  if (config.backupRetention !== undefined && (!Number.isInteger(config.backupRetention) || config.backupRetention < 1))
    problems.push(`HEARTH_BACKUP_RETENTION must be a whole number of backups of at least 1, got ${config.backupRetention}`);
  if (config.backupMaxBytes !== undefined && (!Number.isInteger(config.backupMaxBytes) || config.backupMaxBytes < 1))
    problems.push(`HEARTH_BACKUP_MAX_BYTES must be a positive number of bytes, got ${config.backupMaxBytes}`);
  const connect = config.connect;
  if (connect?.url && !/^https?:\/\/\{id\}\.[a-z0-9.-]+(:\d+)?\/?$/i.test(connect.url))
    problems.push(`CLOUD_CONNECT_URL must look like http(s)://{id}.<domain>[:port], got "${connect.url}"`);
  if (connect?.nodeUrl && !/^http:\/\/[^/]+\/?$/.test(connect.nodeUrl))
    problems.push(`CLOUD_NODE_URL must be http://host:port (an internal address), got "${connect.nodeUrl}"`);
  if (
    connect?.requestsPerMinute !== undefined &&
    !(Number.isInteger(connect.requestsPerMinute) && connect.requestsPerMinute >= 1)
  )
    problems.push(`HEARTH_RELAY_REQUESTS_PER_MINUTE must be a whole number of at least 1, got ${connect.requestsPerMinute}`);
  for (const [name, value] of [
    ['HEARTH_RELAY_ANONYMOUS_PER_ADDRESS', connect?.anonymousPerAddressPerMinute],
    ['HEARTH_RELAY_ANONYMOUS_PER_MINUTE', connect?.anonymousPerMinute],
    ['HEARTH_RELAY_BODY_TIMEOUT_MS', connect?.bodyTimeoutMs],
  ] as const)
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      problems.push(`${name} must be a whole number of at least 1, got ${value}`);
  if (config.webhookRetryBaseMs !== undefined && (!Number.isInteger(config.webhookRetryBaseMs) || config.webhookRetryBaseMs < 10))
    problems.push(
      `HEARTH_WEBHOOK_RETRY_MS must be a whole number of milliseconds of at least 10, got ${config.webhookRetryBaseMs}`,
    );
  if (config.blobStore?.kind === 's3') {
    const s3 = config.blobStore;
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(s3.bucket))
      problems.push(`HEARTH_S3_BUCKET is not a bucket name: "${s3.bucket}"`);
    if (s3.endpoint && !/^https?:\/\//.test(s3.endpoint)) problems.push('HEARTH_S3_ENDPOINT must be an http(s) URL');
    if (!s3.accessKeyId || !s3.secretAccessKey)
      problems.push('HEARTH_S3_ACCESS_KEY_ID and HEARTH_S3_SECRET_ACCESS_KEY are needed with HEARTH_S3_BUCKET');
  }
  return problems;
}
