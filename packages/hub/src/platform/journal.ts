import pino from 'pino';
import type { Clock } from '../core/clock';

const LIMIT = 1000;

/**
 * The hub's journal: its most recent log lines, in memory, like a journal of the current boot. Managers add
 * lines; every realtime event the hub publishes is logged too.
 */
export class Journal {
  /**
   * A ring of the last {@link LIMIT} entries: logging one never moves the others. Entries keep their time as
   * a number and are formatted when read: the hub logs every event it publishes, and reads the journal rarely.
   */
  private readonly entries: { at: number; message: string }[] = [];
  private next = 0;

  constructor(
    private readonly hubId: string,
    private readonly clock: Clock,
  ) {}

  log(message: string): void {
    const entry = { at: this.clock.now(), message };
    if (this.entries.length < LIMIT) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % LIMIT;
  }

  tail(count: number): string[] {
    const ordered =
      this.entries.length < LIMIT ? this.entries : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return ordered.slice(-count).map(({ at, message }) => `${new Date(at).toISOString()} hearth[${this.hubId}]: ${message}`);
  }
}

/** Support needs a hub's warnings and errors in its diagnostic report, whatever its console shows. */
const JOURNALED_LEVEL = 'warn';

/**
 * A log destination that adds each record it receives to the journal, e.g. `error request failed: no such
 * table: x`. Pino sets the record's level, message and logged object on it before each write (its metadata
 * protocol), so the serialized line is never parsed back.
 */
class JournalDestination {
  readonly [pino.symbols.needsMetadataGsym] = true;
  lastLevel = 0;
  lastMsg: string | undefined;
  lastObj: { err?: unknown } = {};

  constructor(private readonly journal: Journal) {}

  write(): void {
    const level = pino.levels.labels[this.lastLevel] ?? String(this.lastLevel);
    const cause = this.lastObj.err instanceof Error ? this.lastObj.err.message : undefined;
    // Pino takes the error's message as the record's when none was given: it is not repeated.
    const message = [this.lastMsg, cause === this.lastMsg ? undefined : cause].filter(Boolean).join(': ');
    this.journal.log(`${level} ${message}`);
  }
}

/**
 * The hub's logger options: records at `level` and above go to the console, and warnings and errors go to
 * the journal too, even when the console is silent (as in tests). The logger itself runs at the lower of the
 * two levels, so records neither wants (a request's info lines on a quiet hub) cost nothing.
 */
export function journalingLogger(journal: Journal, level: string) {
  const levels = pino.levels.values;
  if (level !== 'silent' && levels[level] === undefined) throw new Error(`Unknown log level "${level}"`);
  const destination = { level: JOURNALED_LEVEL, stream: new JournalDestination(journal) };
  const toConsole = level === 'silent' ? [] : [{ level, stream: pino.destination(1) }];
  return {
    level: (levels[level] ?? Number.POSITIVE_INFINITY) < levels[JOURNALED_LEVEL] ? level : JOURNALED_LEVEL,
    stream: pino.multistream([...toConsole, destination]),
  };
}
