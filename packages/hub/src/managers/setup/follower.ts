import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloudOperations, HearthError, i18nOptions, isTimezone, type SetupSessionBody } from '@hearth/contract';
import { Value } from 'typebox/value';
import { CloudCallError } from '../../cloudlink/client';
import type { HubContext } from '../../platform/context';
import { DelegationVerifier } from '../../platform/delegation';
import { stageRestoreFromCloud } from '../backup/restore';
import { optionKey } from '../options';
import { hubName } from '../system';
import { runSetupCommand } from './commands';
import { factoryResetPending, stageFactoryReset } from './factory-reset';

/** How often the hub reads its session while following one. */
const POLL_MS = 500;

/**
 * The session the hub follows, kept beside its database rather than in it: a restore the session asks for replaces
 * the database, and the hub must go on following the session after that restart.
 */
interface Joined {
  sessionId: string;
  token: string;
  /** The backup the reset asked for, once its restore was staged. */
  restoring: string | null;
  /** Whether the factory reset the reset asked for was staged. */
  resetting?: boolean;
}

const joinedFile = (context: HubContext) => join(context.config.dataDir, `${context.config.id}.setup.json`);

export interface FollowerState {
  sessionId: string | null;
  state: string | null;
  commandsAnswered: number;
  restoring: string | null;
  resetting: boolean;
  lastError: string | null;
}

/**
 * Follows a cloud setup session: joins it, answers the app's commands, signs the owner in with the account's
 * delegation token, applies the reset (a restore of the backup `extraProperties.backupId` names or a factory reset,
 * staged and applied by a restart; the name, language and time zone) and reports it done. One read of the session at a time, on the hub's clock.
 */
export class SetupFollower {
  #joined: Joined | null = null;
  #cancel: (() => void) | null = null;
  #stopped = true;
  readonly #verifier: DelegationVerifier;
  readonly state: FollowerState = {
    sessionId: null,
    state: null,
    commandsAnswered: 0,
    restoring: null,
    resetting: false,
    lastError: null,
  };

  constructor(private readonly context: HubContext) {
    this.#verifier = new DelegationVerifier(context.config.cloudUrl);
  }

  /** Resumes the session joined before the hub (re)started. */
  start(): void {
    this.#stopped = false;
    const file = joinedFile(this.context);
    if (!existsSync(file)) return;
    try {
      this.#follow(JSON.parse(readFileSync(file, 'utf8')) as Joined);
    } catch {
      rmSync(file, { force: true });
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = null;
  }

  /** Follows `sessionId` from now on (instead of any other), and reads it once before answering. */
  async join(sessionId: string, token: string): Promise<FollowerState> {
    this.#cancel?.();
    this.state.commandsAnswered = 0;
    this.state.lastError = null;
    this.#follow({ sessionId, token, restoring: null }, false);
    await this.#tick();
    if (this.state.sessionId === null && this.state.state !== 'done')
      throw new HearthError('forbidden', `The cloud refused this setup session: ${this.state.lastError}`);
    return this.state;
  }

  #follow(joined: Joined, schedule = true): void {
    this.#joined = joined;
    writeFileSync(joinedFile(this.context), JSON.stringify(joined));
    this.state.sessionId = joined.sessionId;
    this.state.restoring = joined.restoring;
    this.state.resetting = joined.resetting === true && factoryResetPending(this.context.config);
    if (schedule) this.#schedule(0);
  }

  #schedule(ms: number): void {
    if (this.#stopped || !this.#joined) return;
    this.#cancel = this.context.clock.setTimeout(() => {
      this.#cancel = null;
      this.#tick().catch((error) =>
        this.context.journal.log(`error setup: following the session failed: ${(error as Error).message}`),
      );
    }, ms);
  }

  #leave(): void {
    this.#joined = null;
    this.state.sessionId = null;
    this.state.restoring = null;
    this.state.resetting = false;
    rmSync(joinedFile(this.context), { force: true });
  }

  async #tick(): Promise<void> {
    const joined = this.#joined;
    if (!joined) return;
    const call = { sessionId: joined.sessionId };
    const as = { bearer: joined.token };
    const { cloud } = this.context;
    try {
      let session = await cloud.call(cloudOperations.setup.getSession, call, as);
      if (session.state === 'created')
        session = await cloud.call(
          cloudOperations.setup.setSessionState,
          { ...call, data: { state: 'homey_connected', homeyId: this.context.config.id } },
          as,
        );
      this.state.state = session.state;
      for (const command of await cloud.call(cloudOperations.setup.getSessionCommands, call, as)) {
        if (command.result !== null) continue;
        const result = await runSetupCommand(this.context, command);
        await cloud.call(cloudOperations.setup.updateSessionCommandResponse, { ...call, commandId: command._id, result }, as);
        this.state.commandsAnswered += 1;
      }
      if (session.delegationToken) await this.#signIn(session);
      if (session.state === 'configured' && (await this.#applyReset(session, joined))) {
        await cloud.call(cloudOperations.setup.setSessionState, { ...call, data: { state: 'done' } }, as);
        this.state.state = 'done';
      }
      this.state.lastError = null;
      if (this.state.state === 'done') return this.#leave();
    } catch (error) {
      this.state.lastError = error instanceof CloudCallError ? `${error.message}: ${JSON.stringify(error.body)}` : String(error);
      // A session that is gone, expired or no longer ours is not followed further.
      if (error instanceof CloudCallError && [401, 404, 410].includes(error.status)) {
        this.context.journal.log(`warn left setup session ${joined.sessionId}: ${this.state.lastError}`);
        return this.#leave();
      }
    }
    this.#schedule(POLL_MS);
  }

  /**
   * Binds the hub's owner to the account setting it up, with the delegation token the app handed over: the token
   * must be the cloud's and the session's account's. An owner bound already stays as it is.
   */
  async #signIn(session: SetupSessionBody): Promise<void> {
    const owner = this.context.users.owner();
    if (!owner || owner.athomId !== null || !session.userId) return;
    const claims = await this.#verifier.verify(session.delegationToken as string);
    if (claims.sub !== session.userId) return;
    this.context.users.update(owner.id, { athomId: claims.sub, ...(claims.name ? { name: claims.name } : {}) });
  }

  /**
   * Applies what the reset asks: a restore of `extraProperties.backupId`, else a factory reset when `factoryreset`
   * (either staged now and applied by the restart it requests; the session is reported done once the hub runs on
   * the restored or fresh data), then the name, language and time zone. Answers whether the reset is applied.
   */
  async #applyReset(session: SetupSessionBody, joined: Joined): Promise<boolean> {
    const reset = session.reset;
    const extra = reset?.extraProperties ?? {};
    const backupId = typeof extra.backupId === 'string' ? extra.backupId : null;
    const name = reset?.name ?? null;
    if (backupId !== null) {
      const restored = this.context.settings.get<{ backupId?: string } | null>('backup.restoredFrom', null);
      if (restored?.backupId !== backupId) {
        if (joined.restoring !== backupId) {
          await stageRestoreFromCloud(this.context, backupId, { name });
          this.#restartFor({ ...joined, restoring: backupId }, `restore of backup ${backupId}`);
        }
        return false;
      }
    } else if (reset?.factoryreset) {
      if (!joined.resetting) {
        const reason = `setup session ${joined.sessionId}`;
        stageFactoryReset(this.context.config, { reason, name, at: this.context.clock.now() });
        this.#restartFor({ ...joined, resetting: true }, 'factory reset');
        return false;
      }
      if (factoryResetPending(this.context.config)) return false;
    }
    this.#applySettings(name, extra);
    return true;
  }

  /** Follows `joined` on from the restart it asks for: the staged work replaces the database under every manager. */
  #restartFor(joined: Joined, what: string): void {
    this.#follow(joined, false);
    this.context.bus.emit('hub.restartRequested', { reason: `${what} for setup session ${joined.sessionId}` });
  }

  /** The name, language and time zone the reset gives the hub, each as its own setting (or option) takes it. */
  #applySettings(name: string | null, extra: Record<string, unknown>): void {
    const { settings } = this.context;
    if (name && name !== hubName(this.context)) settings.set('system.name', name);
    const { language, timezone } = extra;
    if (Value.Check(i18nOptions.language.value, language)) settings.set(optionKey('i18n', 'language'), language);
    else if (language !== undefined) this.context.journal.log(`warn setup: ignored language ${String(language)}`);
    if (isTimezone(timezone)) settings.set(optionKey('i18n', 'timezone'), timezone);
    else if (timezone !== undefined) this.context.journal.log(`warn setup: ignored time zone ${String(timezone)}`);
  }
}
