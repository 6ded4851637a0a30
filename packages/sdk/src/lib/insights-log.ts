import type { AppBridge } from '../internal/bridge';

export interface InsightsLogOptions {
  title: string;
  type: 'number' | 'boolean';
  units?: string;
  decimals?: number;
}

/** A log of the app in Insights (`this.homey.insights.createLog`), charted with the hub's own logs. */
export class InsightsLog {
  constructor(
    readonly id: string,
    readonly options: InsightsLogOptions,
    private readonly bridge: AppBridge,
  ) {}

  get name(): string {
    return this.id;
  }

  /** Adds an entry with the current time. */
  async createEntry(value: number | boolean): Promise<void> {
    if (this.options.type === 'number' ? typeof value !== 'number' : typeof value !== 'boolean') {
      throw new TypeError(`Log ${this.id} takes ${this.options.type} values`);
    }
    await this.bridge.call('insights.createEntry', { id: this.id, value });
  }

  toJSON(): { name: string; options: InsightsLogOptions } {
    return { name: this.id, options: this.options };
  }
}
