import { cloudOperations, FREE_TIER, type OperationResult } from '@hearth/contract';
import { hubSecret } from '@hearth/contract/hub-secret';
import type { HubConfig } from '../config';
import type { Clock } from '../core/clock';
import type { Scheduler } from '../core/scheduler';
import { type HubDatabase, transact } from '../store/database';
import type { SettingStore } from '../store/settings';
import type { CloudLink } from './client';

/** How often the hub asks the cloud again what its owner's subscriptions unlock. */
export const ENTITLEMENTS_REFRESH_MS = 6 * 3600_000;
/** How soon it asks again after the cloud could not answer. */
const RETRY_MS = 15 * 60_000;
/** The soonest it asks again after an answer, whatever the answer says. */
const MIN_WAIT_MS = 60_000;
/** The setting that keeps the last answer, so a restart without the cloud keeps what the owner paid for. */
const SETTING = 'cloud.entitlements';
const JOB = 'cloud.entitlements';

type Answer = OperationResult<typeof cloudOperations.store.getHomeyEntitlements>;

/** The cloud's last answer as the hub keeps it, its lease counted on the hub's own clock. */
interface Kept {
  homeyId: string;
  tier: string;
  backups: boolean;
  subscriptions: Answer['subscriptions'];
  /** When the cloud worked the answer out, on its clock. */
  checkedAt: string;
  /** When the answer arrived, and until when it holds, on the hub's clock (epoch ms). */
  receivedAt: number;
  expiresAt: number;
}

/** What the hub may use now. */
export interface Entitlements {
  readonly tier: string;
  readonly backups: boolean;
}

/** Whether a backup may go to the cloud, and if not, why not (the archive's `cloudError`). */
export type CloudBackupsAnswer = { readonly included: true } | { readonly included: false; readonly reason: string };

export interface EntitlementDeps {
  readonly config: HubConfig;
  readonly db: HubDatabase;
  readonly settings: SettingStore;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly cloud: CloudLink;
  readonly log: (line: string) => void;
}

/**
 * What the subscriptions of the hub's owner unlock on it (the store's `getHomeyEntitlements`, asked with the hub's
 * secret): its tier and whether its backups may be kept in the cloud. The hub asks once it has registered with the
 * cloud, then every {@link ENTITLEMENTS_REFRESH_MS} (a durable scheduler job, so the period survives restarts) and
 * again when the answer runs out. The last answer is kept in the database: a hub restarted without its cloud keeps
 * it until its lease ends (a week at most, sooner when a subscription it counts ends), then has the free tier.
 * The configured `tier` (env `HUB_TIER`) overrides the tier, for hubs without a cloud and for development.
 */
export class CloudEntitlements {
  #kept: Kept | null = null;
  #asking: Promise<Kept> | null = null;
  #stopHandling: (() => void) | null = null;
  #running = false;

  constructor(private readonly deps: EntitlementDeps) {}

  /** Whether the hub has a cloud to ask: its address and its internal client's secret. */
  get linked(): boolean {
    return Boolean(this.deps.config.cloudUrl && this.deps.config.cloudClientSecret);
  }

  /** Takes up the kept answer and the refresh job; asks nothing yet (the hub asks once it has registered). */
  start(): void {
    const { settings, scheduler, clock, config } = this.deps;
    const kept = settings.get<Kept | null>(SETTING, null);
    // A database restored from another hub's backup carries that hub's answer: not this one's.
    this.#kept = kept?.homeyId === config.id ? kept : null;
    this.#running = true;
    if (!this.linked) return;
    this.#stopHandling = scheduler.handle(JOB, {
      run: () => {
        // The next ask is on the books before this one goes out: a process that dies meanwhile still has it.
        this.#scheduleAt(clock.now() + RETRY_MS);
        return this.refresh().then(
          () => undefined,
          () => undefined,
        );
      },
    });
    if (scheduler.list({ kind: JOB }).length === 0) this.#scheduleAt(clock.now() + ENTITLEMENTS_REFRESH_MS);
  }

  /** Stops the job's handler and waits for an ask under way; the job itself stays for the next start. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopHandling?.();
    this.#stopHandling = null;
    // Stopping waits for a question in flight to end; how it ended was logged by the one who asked.
    await this.#asking?.catch(() => undefined);
  }

  /** What the kept answer unlocks now: nothing once it has run out, or when there is none. */
  current(): Entitlements {
    const kept = this.#kept;
    if (!kept || this.deps.clock.now() >= kept.expiresAt) return { tier: FREE_TIER, backups: false };
    return { tier: kept.tier, backups: kept.backups };
  }

  /** The tier the hub announces (`X-Homey-Tier`): the configured one, else what the owner's subscriptions give. */
  tier(): string {
    return this.deps.config.tier ?? this.current().tier;
  }

  /**
   * Asks the cloud now (one ask at a time: callers meanwhile share it), keeps the answer and sets the next ask:
   * in {@link ENTITLEMENTS_REFRESH_MS}, or when the answer runs out if sooner. Rejects when the cloud cannot answer,
   * and asks again in a quarter of an hour; the kept answer stays until its own end.
   */
  refresh(): Promise<Entitlements> {
    this.#asking ??= this.#ask().finally(() => {
      this.#asking = null;
    });
    return this.#asking.then((kept) => ({ tier: kept.tier, backups: kept.backups }));
  }

  /**
   * Whether a backup may be kept in the cloud. A kept yes is trusted (the cloud checks again when the backup is
   * created); a no, or no answer, is asked again first, so a subscription bought a minute ago counts at once.
   */
  async cloudBackups(): Promise<CloudBackupsAnswer> {
    if (this.current().backups) return { included: true };
    try {
      const now = await this.refresh();
      if (now.backups) return { included: true };
      return {
        included: false,
        reason: `Cloud backups are not included in the subscriptions of this hub’s owner (tier ${now.tier}): the backup is kept on this hub only`,
      };
    } catch (error) {
      return {
        included: false,
        reason: `The cloud could not confirm that this hub’s owner has cloud backups (${(error as Error).message}): the backup is kept on this hub only`,
      };
    }
  }

  async #ask(): Promise<Kept> {
    const { config, cloud, clock } = this.deps;
    if (!this.linked) throw new Error('the hub has no cloud to ask');
    let answer: Answer;
    try {
      answer = await cloud.call(cloudOperations.store.getHomeyEntitlements, {
        homeyId: config.id,
        secret: hubSecret(config.cloudClientSecret as string, config.id),
      });
    } catch (error) {
      if (this.#running) {
        this.deps.log(`warn the cloud could not say what this hub's subscriptions unlock: ${(error as Error).message}`);
        this.#scheduleAt(clock.now() + RETRY_MS);
      }
      throw error;
    }
    const receivedAt = clock.now();
    // The lease is counted as a length from the cloud's own clock, so a hub whose clock is off keeps it as long.
    const lease = Math.max(0, Date.parse(answer.validUntil) - Date.parse(answer.checkedAt));
    const kept: Kept = {
      homeyId: config.id,
      tier: answer.tier,
      backups: answer.backups,
      subscriptions: answer.subscriptions,
      checkedAt: answer.checkedAt,
      receivedAt,
      expiresAt: receivedAt + lease,
    };
    if (!this.#running) return kept;
    const previous = this.current();
    this.#kept = kept;
    transact(this.deps.db, () => {
      this.deps.settings.set(SETTING, kept);
      this.#scheduleAt(Math.min(receivedAt + ENTITLEMENTS_REFRESH_MS, kept.expiresAt));
    });
    if (previous.tier !== kept.tier || previous.backups !== kept.backups)
      this.deps.log(
        `info the owner's subscriptions now give this hub tier ${kept.tier}, cloud backups ${kept.backups ? 'on' : 'off'}`,
      );
    return kept;
  }

  /** Replaces the pending ask with one at `dueAt` (never sooner than a minute from now). */
  #scheduleAt(dueAt: number): void {
    const { scheduler, clock } = this.deps;
    transact(this.deps.db, () => {
      scheduler.cancelOwner(JOB);
      scheduler.schedule({ kind: JOB, owner: JOB, dueAt: Math.max(dueAt, clock.now() + MIN_WAIT_MS), payload: null });
    });
  }
}
