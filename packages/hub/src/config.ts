import { join } from 'node:path';
import { HUB_MODELS, type HubModelCode, type MqttBrokerSettings } from '@hearth/contract';
import { type RateLimits, rateLimitProblems } from '@hearth/contract/fastify';
import type { TunnelOptions } from './cloudlink/tunnel';

/** Hub models Hearth simulates; the code's suffix decides hardware facts (5q/6q/7q have add-on ports and under-voltage sensing). */
export const hubModels = HUB_MODELS;

export type HubModel = HubModelCode;

export interface HubConfig {
  /** 24 hex characters: safe in headers, URLs and DNS labels. */
  id: string;
  name: string;
  model: HubModel;
  host: string;
  port: number;
  /** Directory holding this hub's SQLite database `<id>.db`. */
  dataDir: string;
  softwareVersion: string;
  /**
   * The hub's service tier as clients read it from every answer's `X-Homey-Tier` (env `HUB_TIER`), when set: an
   * override, for hubs without a cloud and for development. Unset, the tier is what the owner's subscriptions
   * unlock, as the cloud says (`free` without a subscription, or while the cloud has not said).
   */
  tier?: string;
  language: string;
  /** Cloud base URL (e.g. `http://127.0.0.1:4000`), or `null` for a hub that runs without any cloud. */
  cloudUrl: string | null;
  /**
   * Where people's browsers reach that cloud (env `HEARTH_CLOUD_PUBLIC_URL`), when the hub reaches it at another
   * address (an internal one): the household web app signs in through it and reads its app catalogue. `cloudUrl`
   * when unset.
   */
  cloudPublicUrl?: string | null;
  /**
   * The cloud account (`_id`) that owns this hub, when known (env `HUB_OWNER_ATHOM_ID`): its delegation tokens sign
   * in as the owner. Without it, the owner is the account the cloud's hub registry names (it claimed the hub there
   * with the hub's one-time claim code); no account takes an unowned hub by signing in first.
   */
  ownerAthomId?: string | null;
  /**
   * Secret of the provider's internal cloud client (env `HEARTH_INTERNAL_CLIENT_SECRET`), with which the hub
   * registers itself and its addresses with the cloud at start. Without it the hub does not register.
   */
  cloudClientSecret?: string | null;
  /**
   * Advertise the hub on the local network over mDNS (`homey-<id>.local`, service `_homey._tcp`). The hub
   * process turns it on unless `HUB_MDNS=0`; unset (tests, embedders) it stays off. Cloud hubs never advertise.
   */
  mdns?: boolean;
  /**
   * The connect relay tunnel (see `cloudlink/tunnel.ts`): opened once the hub has registered with its cloud, unless
   * `false` (env `HUB_RELAY=0`); the object tunes its back-off and heartbeat (tests).
   */
  relay?: TunnelOptions | false;
  /**
   * The hub's address from outside the home when the household forwards a port of its router to it (env
   * `HUB_REMOTE_URL_FORWARDED`, an origin such as `https://203.0.113.7:4859`): registered as the hub's
   * `remoteUrlForwarded`, which clients try (the `remoteForwarded` strategy) before the cloud's relay.
   */
  remoteUrlForwarded?: string | null;
  /**
   * Serve HTTPS on this port too (env `HUB_SECURE_PORT`; 0 for any free one), with a certificate the cloud's CA
   * signs for the hub's address: registered as the hub's `localUrlSecure`. Needs a cloud; off when unset.
   */
  securePort?: number | null;
  /** Heap cap of each app's process in MB (env `HUB_APP_HEAP_MB`); 128 when unset. */
  appHeapMb?: number;
  /**
   * Token a scraper elsewhere sends as `Authorization: Bearer` to read `/metrics` (env `HEARTH_METRICS_TOKEN`);
   * without it only direct requests from loopback are served.
   */
  metricsToken?: string | null;
  /** Requests per token and per address of the local API (env `HEARTH_RATE_LIMIT_*`); the defaults when unset. */
  rateLimits?: RateLimits;
  /**
   * Where the household web app was built (env `HOME_APP_DIST`); `packages/home/dist` when unset. The hub serves
   * it at its origin root.
   */
  homeAppDir?: string;
  /**
   * The Z-Wave stick (env `HUB_ZWAVE_PORT`): a serial device such as `/dev/ttyACM0`, or `tcp://host:port` (a stick
   * shared over the network, or zwave-js's mock server). Without one the hub has no Z-Wave controller.
   */
  zwavePort?: string | null;
  /**
   * When `zwavePort` is no radio but a stand-in for one (env `HUB_ZWAVE_STAND_IN`, set by `npm start` for its virtual
   * Z-Wave network): what it is, said wherever the hub describes its controller.
   */
  zwaveStandIn?: string | null;
  /**
   * How long Matter commissioning may take, discovery on the network included (env
   * `HUB_MATTER_COMMISSION_TIMEOUT_MS`); 60 s when unset.
   */
  matterCommissionTimeoutMs?: number;
  /**
   * The longest interval Matter nodes commissioned from now on are asked to report within (env
   * `HUB_MATTER_SUBSCRIPTION_CEILING_MS`): a node silent for about this plus 15 s is unavailable. Unset: matter.js's
   * defaults (1 minute), and a lost node is noticed after its own subscription timeout.
   */
  matterSubscriptionCeilingMs?: number;
  /**
   * How long a realtime connection may stay open without proving who it is (`handshakeClient`, or an `/api` join with
   * a token) before the hub closes it; 30 s when unset. A stranger cannot hold sockets open for nothing (through the
   * cloud's relay they would take the household's room there).
   */
  realtimeHandshakeDeadlineMs?: number;
  /**
   * The MQTT broker the built-in bridge connects to (env `HUB_MQTT_URL`, `HUB_MQTT_USERNAME`, `HUB_MQTT_PASSWORD`,
   * `HUB_MQTT_CLIENT_ID`, `HUB_MQTT_CA`, `HUB_MQTT_BASE_TOPIC`, `HUB_MQTT_DISCOVERY_PREFIX`, `HUB_MQTT_HOMIE_PREFIX`; see
   * `managers/mqtt/environment.ts`), unless the hub's stored setting names another; none when unset.
   */
  mqtt?: MqttBrokerSettings | null;
  logLevel: string;
}

export const HUB_SOFTWARE_VERSION = '12.4.0';

export function databasePath(config: HubConfig): string {
  return join(config.dataDir, `${config.id}.db`);
}

/** Readable list of configuration problems, empty when the configuration is valid. */
export function checkHubConfig(config: HubConfig): string[] {
  const problems: string[] = [];
  if (!/^[0-9a-f]{24}$/.test(config.id)) problems.push(`id must be 24 lower-case hex characters, got "${config.id}"`);
  if (!(config.model in hubModels)) problems.push(`model must be one of ${Object.keys(hubModels).join(', ')}`);
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535)
    problems.push(`port must be 0–65535, got ${config.port}`);
  const secure = config.securePort;
  if (secure !== undefined && secure !== null && (!Number.isInteger(secure) || secure < 0 || secure > 65535))
    problems.push(`securePort must be 0–65535, got ${secure}`);
  if (!config.name.trim()) problems.push('name must not be empty');
  if (config.remoteUrlForwarded && !/^https?:\/\/[^/?#\s]+\/?$/.test(config.remoteUrlForwarded))
    problems.push(`remoteUrlForwarded (HUB_REMOTE_URL_FORWARDED) must be an http(s) origin, got "${config.remoteUrlForwarded}"`);
  if (config.tier !== undefined && !/^[a-z][a-z0-9-]{0,31}$/.test(config.tier))
    problems.push(`tier (HUB_TIER) must be lower-case letters, digits and dashes, got "${config.tier}"`);
  if (
    config.appHeapMb !== undefined &&
    !(Number.isInteger(config.appHeapMb) && config.appHeapMb >= 16 && config.appHeapMb <= 4096)
  )
    problems.push(`appHeapMb (HUB_APP_HEAP_MB) must be a whole number of MB from 16 to 4096, got ${config.appHeapMb}`);
  if (config.metricsToken && config.metricsToken.length < 16)
    problems.push('metricsToken (HEARTH_METRICS_TOKEN) must be at least 16 characters');
  if (config.mqtt && !/^(mqtts?|wss?):\/\/[^\s/?#]+/.test(config.mqtt.url))
    problems.push(`mqtt.url (HUB_MQTT_URL) must be an mqtt://, mqtts://, ws:// or wss:// URL, got "${config.mqtt.url}"`);
  problems.push(...rateLimitProblems(config.rateLimits));
  return problems;
}
