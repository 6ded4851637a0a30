import { cloudOperations, type hubOperations, type OperationResult } from '@hearth/contract';
import { ACCOUNT_PAGES, formatClaimCode } from '@hearth/contract/provider';
import QRCode from 'qrcode';
import type { HubConfig } from '../config';
import type { Clock } from '../core/clock';
import type { Scheduler } from '../core/scheduler';
import { CloudCallError, type CloudLink } from './client';
import { cloudOwnerOf } from './ownership';

export type HubClaim = OperationResult<typeof hubOperations.cloud.getClaim>;

/** A new code is asked for this long before the shown one ends, so the page never shows a dead code. */
export const RENEW_BEFORE_MS = 2 * 60_000;
/** How soon the hub asks again when the cloud could not give a code (not reachable, or the hub not registered yet). */
const RETRY_MS = 30_000;
/** How long an answer to "does someone own me now?" is reused: the page asks every few seconds. */
const OWNER_CHECK_MS = 3_000;
const JOB = 'cloud.claim-code';

export interface ClaimDeps {
  readonly config: HubConfig;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly cloud: CloudLink;
  readonly log: (line: string) => void;
}

interface Shown {
  readonly code: string;
  readonly expiresAt: number;
  readonly claimUrl: string;
  readonly claimQr: string;
}

/**
 * The short code an unowned hub shows (on its web page, `getClaim`, and in its log) for a person to claim it on
 * the account pages. The cloud makes each code (`createHomeyClaimCode`) and keeps only its hash; the hub asks for
 * the first once it has registered, and for a new one {@link RENEW_BEFORE_MS} before each ends (a scheduler job).
 * Codes die with the process: a restart asks for a new one. Once someone claims the hub it shows nothing more.
 */
export class CloudClaim {
  #shown: Shown | null = null;
  #claimed = false;
  #asking: Promise<Shown | null> | null = null;
  #ownerCheckedAt = Number.NEGATIVE_INFINITY;
  #ownerCheckFailing = false;
  #stopHandling: (() => void) | null = null;
  readonly #listeners = new Set<(claim: Shown) => void>();

  constructor(private readonly deps: ClaimDeps) {}

  get linked(): boolean {
    return Boolean(this.deps.config.cloudUrl && this.deps.config.cloudClientSecret);
  }

  /** Takes up the renewal job (a code of a previous run is dead: its job goes). Asks nothing until {@link begin}. */
  start(): void {
    const { scheduler } = this.deps;
    scheduler.cancelOwner(JOB);
    this.#stopHandling = scheduler.handle(JOB, { run: () => void this.#renew() });
  }

  /** Once the hub has registered with the cloud: asks for the first code when nobody owns the hub. */
  begin(): void {
    if (this.linked && !this.deps.config.ownerAthomId) void this.#renew();
  }

  stop(): void {
    this.#stopHandling?.();
    this.#stopHandling = null;
    this.deps.scheduler.cancelOwner(JOB);
  }

  /** Called with each new code (the hub's entry point prints it). Answers the undo. */
  onCode(listener: (claim: Shown) => void): () => void {
    this.#listeners.add(listener);
    if (this.#shown) listener(this.#shown);
    return () => this.#listeners.delete(listener);
  }

  /**
   * What the hub's web page shows: whether it is owned, and while not, the code that claims it. `remote` (a request
   * through the cloud's relay) is told only that nobody owns the hub: the code is for whoever is at the hub, and
   * through the relay anyone who knows its id could ask.
   */
  async current({ remote = false }: { remote?: boolean } = {}): Promise<HubClaim> {
    const none = { code: null, expiresAt: null, claimUrl: null, claimQr: null };
    if (!this.linked) return { state: 'no_cloud', ...none };
    if (this.deps.config.ownerAthomId || this.#claimed || (await this.#ownedNow())) return { state: 'claimed', ...none };
    const fresh = this.#shown && this.#shown.expiresAt - this.deps.clock.now() > RENEW_BEFORE_MS ? this.#shown : null;
    const shown = fresh ?? (await this.#renew());
    if (this.#claimed) return { state: 'claimed', ...none };
    if (!shown) return { state: 'unavailable', ...none };
    if (remote) return { state: 'unclaimed', ...none };
    return { state: 'unclaimed', ...shown, expiresAt: new Date(shown.expiresAt).toISOString() };
  }

  /** Whether the cloud names an owner now (asked at most every few seconds; an unanswered question is a no). */
  async #ownedNow(): Promise<boolean> {
    const now = this.deps.clock.now();
    if (now - this.#ownerCheckedAt < OWNER_CHECK_MS) return false;
    this.#ownerCheckedAt = now;
    try {
      if ((await cloudOwnerOf(this.deps.cloud, this.deps.config)) !== null) this.#becameClaimed();
      this.#ownerCheckFailing = false;
    } catch (error) {
      // Once per outage: the page asks every few seconds.
      if (!this.#ownerCheckFailing) this.deps.log(`warn cloud: could not ask who owns this hub: ${(error as Error).message}`);
      this.#ownerCheckFailing = true;
    }
    return this.#claimed;
  }

  #becameClaimed(): void {
    if (this.#claimed) return;
    this.#claimed = true;
    this.#shown = null;
    this.deps.scheduler.cancelOwner(JOB);
    this.deps.log('info cloud: this hub has been claimed');
  }

  /** Asks the cloud for a new code (one question at a time) and schedules the next. */
  #renew(): Promise<Shown | null> {
    this.#asking ??= this.#ask().finally(() => {
      this.#asking = null;
    });
    return this.#asking;
  }

  async #ask(): Promise<Shown | null> {
    const { cloud, config, clock, scheduler } = this.deps;
    if (this.#claimed) return null;
    scheduler.cancelOwner(JOB);
    try {
      const answer = await cloud.call(cloudOperations.cloud.createHomeyClaimCode, { id: config.id }, { timeoutMs: 5000 });
      const expiresAt = Date.parse(answer.expiresAt);
      const base = (config.cloudPublicUrl ?? config.cloudUrl ?? '').replace(/\/$/, '');
      const claimUrl = `${base}${ACCOUNT_PAGES.claimHub}#code=${formatClaimCode(answer.code)}`;
      const claimQr = `data:image/svg+xml;base64,${Buffer.from(
        await QRCode.toString(claimUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
      ).toString('base64')}`;
      this.#shown = { code: answer.code, expiresAt, claimUrl, claimQr };
      scheduler.schedule({ kind: JOB, owner: JOB, dueAt: Math.max(clock.now(), expiresAt - RENEW_BEFORE_MS), payload: {} });
      this.deps.log(`info cloud: this hub is not set up yet: claim it with the code ${formatClaimCode(answer.code)}`);
      for (const listener of this.#listeners) listener(this.#shown);
      return this.#shown;
    } catch (error) {
      if (error instanceof CloudCallError && error.status === 409) {
        this.#becameClaimed();
        return null;
      }
      this.deps.log(`warn cloud: could not get a claim code: ${(error as Error).message}`);
      scheduler.schedule({ kind: JOB, owner: JOB, dueAt: clock.now() + RETRY_MS, payload: {} });
      return null;
    }
  }
}
