import { InsightsLog, type InsightsLogOptions } from '../lib/insights-log';
import { Manager } from './manager';

/** `this.homey.insights`: the app's own logs in Insights (devices' capabilities are logged by the hub). */
export class ManagerInsights extends Manager {
  static ID = 'insights';

  /** Every log the app created. */
  async getLogs(): Promise<InsightsLog[]> {
    const logs = await this.bridge.call('insights.getLogs', {});
    return logs.map((log) => new InsightsLog(log.id, { title: log.title, type: log.type as 'number' | 'boolean' }, this.bridge));
  }

  /** The app's log `id`; rejects when there is none. */
  async getLog(id: string): Promise<InsightsLog> {
    const log = (await this.getLogs()).find((l) => l.id === id);
    if (!log) throw new Error(`Log not found: ${id}`);
    return log;
  }

  /** Creates a log (or answers the existing one with this id). `type` is `number` or `boolean`. */
  async createLog(id: string, options: { title: string; type: string; units?: string; decimals?: number }): Promise<InsightsLog> {
    if (options.type !== 'number' && options.type !== 'boolean') throw new TypeError('A log is of type number or boolean');
    const typed: InsightsLogOptions = { ...options, type: options.type };
    await this.bridge.call('insights.createLog', {
      id,
      title: options.title,
      type: typed.type,
      units: options.units ?? null,
      decimals: options.decimals ?? null,
    });
    return new InsightsLog(id, typed, this.bridge);
  }

  /** Deletes the log and its entries. */
  async deleteLog(log: InsightsLog): Promise<void> {
    await this.bridge.call('insights.deleteLog', { id: log.id });
  }
}
