import type { HubContext } from '../../platform/context';

const LIMIT = 1000;

/**
 * The hub's journal: its most recent log lines, in memory, like a journal of the current boot. Managers add
 * lines; every realtime event the hub publishes is logged too.
 */
export class Journal {
  private readonly lines: string[] = [];

  constructor(private readonly hubId: string) {}

  log(message: string): void {
    this.lines.push(`${new Date().toISOString()} hearth[${this.hubId}]: ${message}`);
    if (this.lines.length > LIMIT) this.lines.splice(0, this.lines.length - LIMIT);
  }

  tail(count: number): string[] {
    return this.lines.slice(-count);
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
