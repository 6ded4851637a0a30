import type { HubContext } from '../../platform/context';

const LIMIT = 1000;

/**
 * The hub's journal: its most recent log lines, in memory, like a journal of the current boot. Managers add
 * lines; every realtime event the hub publishes is logged too.
 */
export class Journal {
  /** A ring of the last {@link LIMIT} lines: logging one never moves the others. */
  private readonly lines: string[] = [];
  private next = 0;

  constructor(private readonly hubId: string) {}

  log(message: string): void {
    const line = `${new Date().toISOString()} hearth[${this.hubId}]: ${message}`;
    if (this.lines.length < LIMIT) this.lines.push(line);
    else this.lines[this.next] = line;
    this.next = (this.next + 1) % LIMIT;
  }

  tail(count: number): string[] {
    const ordered = this.lines.length < LIMIT ? this.lines : [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
    return ordered.slice(-count);
  }
}

const journals = new WeakMap<HubContext, Journal>();

export function journalOf(context: HubContext): Journal {
  let journal = journals.get(context);
  if (!journal) {
    journal = new Journal(context.config.id);
    journals.set(context, journal);
  }
  return journal;
}
