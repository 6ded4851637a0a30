import type { Clock } from '@hearth/contract/clock';
import type { LimitStore, Principal, RateLimiter } from '@hearth/contract/fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { CloudConfig } from '../config';
import type { CloudDatabase } from '../database';
import type { Mailer } from '../services/mail/mailer';
import type { BlobStore } from './blob-store';
import type { Sweeper } from './cluster/sweeps';

/** The caller of a cloud operation. */
export interface CloudPrincipal extends Principal {
  /** The signed-in user, or `null` for a client acting on its own behalf (client credentials). */
  readonly userId: string | null;
  readonly clientId: string;
  /** The access token's record id. */
  readonly tokenId: string;
  /** The sign-in (token family) this token belongs to: one entry of the user's sessions list. */
  readonly familyId: string;
  /** Set for a token from a code sent to a hub's address: it asks for delegation to this hub and nothing else. */
  readonly audienceHubId?: string | null;
}

export interface CloudContext {
  readonly config: CloudConfig;
  readonly database: CloudDatabase;
  readonly startedAt: Date;
  /** The time, and timers that never keep a stopped cloud's process alive. Tests move it instead of sleeping. */
  readonly clock: Clock;
  /** Structured log lines (pino); each service's context carries a child naming the service. */
  readonly log: FastifyBaseLogger;
  /** Sends the cloud's mail over SMTP. */
  readonly mail: Mailer;
  /** Counters behind rate limits and throttles: Redis when configured (shared by the nodes), else in process. */
  readonly limits: LimitStore;
  /** Enforces rate-limit policies; services add their own (the token endpoint, the sign-in pages). */
  readonly rateLimiter: RateLimiter;
  /** Files too large for the database (backup archives): a folder, or an S3-compatible bucket shared by the nodes. */
  readonly blobs: BlobStore;
  /** Background sweeps: services declare them at start; one node of the cloud runs each per period. */
  readonly sweeps: Sweeper;
}
