import type { HubContext } from '../../platform/context';

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

  constructor(private readonly hubId: string) {}

  log(message: string): void {
    const entry = { at: Date.now(), message };
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

const journals = new WeakMap<HubContext, Journal>();

export function journalOf(context: HubContext): Journal {
  let journal = journals.get(context);
  if (!journal) {
    journal = new Journal(context.config.id);
    journals.set(context, journal);
  }
  return journal;
}
