import { type INSIGHTS_RESOLUTIONS, notFound } from '@hearth/contract';
import type { Statement } from 'better-sqlite3';
import { isoNow } from '../../core/clock';
import type { HubContext } from '../../platform/context';
import { type Migration, transact } from '../../store/database';
import { Statements } from '../../store/statements';
import type { DeviceRecord, DeviceService } from '../devices/service';

export const insightsMigrations: Migration[] = [
  {
    id: 'insights-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE insights_log (
        log INTEGER PRIMARY KEY,
        owner_uri TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        title_true TEXT,
        title_false TEXT,
        units TEXT,
        decimals INTEGER,
        chart_type TEXT,
        last_value REAL,
        created_at TEXT NOT NULL,
        UNIQUE (owner_uri, owner_id)
      );
      CREATE TABLE insights_entry (
        log INTEGER NOT NULL,
        t INTEGER NOT NULL,
        v REAL,
        PRIMARY KEY (log, t)
      ) WITHOUT ROWID`),
  },
  {
    // Hourly roll-ups: queries at a step of an hour or more (7 days and longer) read these, so a window costs
    // its number of buckets, not its number of entries.
    id: 'insights-002-hourly-rollup',
    up: (db) =>
      db.exec(`CREATE TABLE insights_hour (
        log INTEGER NOT NULL,
        hour INTEGER NOT NULL,
        sum REAL NOT NULL,
        count INTEGER NOT NULL,
        last_t INTEGER NOT NULL,
        last_v REAL,
        PRIMARY KEY (log, hour)
      ) WITHOUT ROWID;
      INSERT INTO insights_hour (log, hour, sum, count, last_t, last_v)
        SELECT log, (t / 3600000) * 3600000 AS hour, SUM(v), COUNT(*), MAX(t), v FROM insights_entry GROUP BY log, hour`),
  },
];

const HOUR_MS = 3_600_000;

export type Resolution = (typeof INSIGHTS_RESOLUTIONS)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Each resolution's window and bucket size: every answer has at most a few hundred points. */
export const RESOLUTIONS: Record<Resolution, { window: number; step: number }> = {
  lastHour: { window: HOUR, step: 60_000 },
  last6Hours: { window: 6 * HOUR, step: 5 * 60_000 },
  last24Hours: { window: DAY, step: 15 * 60_000 },
  last7Days: { window: 7 * DAY, step: HOUR },
  last14Days: { window: 14 * DAY, step: 2 * HOUR },
  last31Days: { window: 31 * DAY, step: 4 * HOUR },
  lastYear: { window: 365 * DAY, step: DAY },
  last2Years: { window: 730 * DAY, step: 2 * DAY },
};

interface LogRow {
  log: number;
  owner_uri: string;
  owner_id: string;
  type: 'number' | 'boolean';
  title: string;
  title_true: string | null;
  title_false: string | null;
  units: string | null;
  decimals: number | null;
  chart_type: string | null;
  last_value: number | null;
  created_at: string;
}

const READ_SCOPE = 'homey.insights.readonly';

/**
 * Insights: one log per getable number or boolean capability of every device, an entry per change.
 * Entries are clustered by (log, time), so a window query is one index range scan aggregated per bucket.
 */
export class InsightsService {
  /** Prepared statements, prepared once per service. */
  #statements: Statements | undefined;
  /** Device values heard on the bus, logged together after this turn of the event loop (see {@link #logSoon}). */
  #waiting: { ownerUri: string; ownerId: string; value: unknown; t: number }[] = [];
  #flushTimer: NodeJS.Immediate | null = null;

  /** Every use of the tables goes through here: what waits to be logged is written first, so reads see it. */
  private sql(text: string): Statement {
    if (this.#waiting.length > 0) this.#logWaiting();
    return this.#statement(text);
  }

  #statement(text: string): Statement {
    this.#statements ??= new Statements(this.context.db);
    return this.#statements.get(text);
  }

  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
  ) {}

  /** Logs every device's values from the domain bus; answers the undo. */
  start(): () => void {
    for (const device of this.devices.list()) this.ensureLogs(device);
    const { bus } = this.context;
    const stops = [
      bus.on('device.added', 'insights', ({ deviceId }) => {
        const device = this.devices.find(deviceId);
        if (device) this.ensureLogs(device);
      }),
      bus.on('device.removed', 'insights', ({ deviceId }) => this.deleteOwner(`homey:device:${deviceId}`)),
      bus.on('device.capability', 'insights', ({ deviceId, capabilityId, value, at }) => {
        // null is "unknown" (a device that lost its reading): no point of the history.
        if (value !== null) this.#logSoon(`homey:device:${deviceId}`, capabilityId, value, at);
      }),
    ];
    return () => {
      for (const stop of stops) stop();
      this.#logWaiting();
    };
  }

  /**
   * Logs a device's value after this turn, with the others of the turn in one savepoint: a history entry is worth
   * less than the change it records (and than the flows that change starts), so it is not written on their way.
   * It still joins the group commit of the change when that commits after it, and anything that reads the logs
   * writes what waits first.
   */
  #logSoon(ownerUri: string, ownerId: string, value: unknown, t: number): void {
    this.#waiting.push({ ownerUri, ownerId, value, t });
    // Not on the clock: "after this turn" is no time a fake clock would have to move to.
    this.#flushTimer ??= setImmediate(() => this.#logWaiting());
  }

  #logWaiting(): void {
    if (this.#flushTimer) clearImmediate(this.#flushTimer);
    this.#flushTimer = null;
    const waiting = this.#waiting;
    this.#waiting = [];
    if (waiting.length === 0 || !this.context.db.open) return;
    transact(this.context.db, () => {
      for (const { ownerUri, ownerId, value, t } of waiting) this.#append(ownerUri, ownerId, value, t);
    });
  }

  /** Creates the logs of a device's getable number and boolean capabilities and records their current values. */
  ensureLogs(device: DeviceRecord): void {
    const insert = this.sql(
      `INSERT OR IGNORE INTO insights_log (owner_uri, owner_id, type, title, title_true, title_false, units, decimals, chart_type, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const values = this.devices.values(device.id);
    const ownerUri = `homey:device:${device.id}`;
    for (const capabilityId of device.capabilities) {
      const c = this.devices.capabilityOf(device, capabilityId);
      if (!c.getable || (c.type !== 'number' && c.type !== 'boolean')) continue;
      const created = insert.run(
        ownerUri,
        capabilityId,
        c.type,
        c.title,
        c.titleTrue ?? null,
        c.titleFalse ?? null,
        c.units ?? null,
        c.decimals ?? null,
        c.chartType ?? null,
        isoNow(this.context.clock),
      );
      const current = values.get(capabilityId);
      if (created.changes > 0 && current && current.value !== null)
        this.append(ownerUri, capabilityId, current.value, current.lastUpdated ?? this.context.clock.now());
    }
  }

  /** Creates a log of an app (`homey.insights.createLog`); an existing log of that id is kept. */
  ensureLog(
    ownerUri: string,
    ownerId: string,
    log: { type: 'number' | 'boolean'; title: string; units: string | null; decimals: number | null },
  ): void {
    this.sql(
      `INSERT OR IGNORE INTO insights_log (owner_uri, owner_id, type, title, units, decimals, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(ownerUri, ownerId, log.type, log.title, log.units, log.decimals, isoNow(this.context.clock));
  }

  /** The logs of one owner (an app's own logs). */
  logsOf(ownerUri: string): { id: string; title: string; type: string }[] {
    const rows = this.sql('SELECT owner_id, title, type FROM insights_log WHERE owner_uri = ? ORDER BY owner_id').all(
      ownerUri,
    ) as {
      owner_id: string;
      title: string;
      type: string;
    }[];
    return rows.map((row) => ({ id: row.owner_id, title: row.title, type: row.type }));
  }

  /** Appends an entry when the value changed; other values (strings, unknown logs) are ignored. */
  append(ownerUri: string, ownerId: string, value: unknown, t: number): void {
    if (this.#waiting.length > 0) this.#logWaiting();
    transact(this.context.db, () => this.#append(ownerUri, ownerId, value, t));
  }

  #append(ownerUri: string, ownerId: string, value: unknown, t: number): void {
    const log = this.#statement('SELECT log, type, last_value FROM insights_log WHERE owner_uri = ? AND owner_id = ?').get(
      ownerUri,
      ownerId,
    ) as { log: number; type: string; last_value: number | null } | undefined;
    if (!log) return;
    const v =
      log.type === 'boolean' ? (typeof value === 'boolean' ? Number(value) : null) : typeof value === 'number' ? value : null;
    if (v === null || v === log.last_value) return;
    const inserted =
      this.#statement('INSERT OR IGNORE INTO insights_entry (log, t, v) VALUES (?, ?, ?)').run(log.log, t, v).changes > 0;
    if (inserted) {
      this.#statement(
        `INSERT INTO insights_hour (log, hour, sum, count, last_t, last_v) VALUES (?, ?, ?, 1, ?, ?)
         ON CONFLICT (log, hour) DO UPDATE SET sum = sum + excluded.sum, count = count + 1,
           last_v = CASE WHEN excluded.last_t >= last_t THEN excluded.last_v ELSE last_v END,
           last_t = MAX(last_t, excluded.last_t)`,
      ).run(log.log, Math.floor(t / HOUR_MS) * HOUR_MS, v, t, v);
    }
    this.#statement('UPDATE insights_log SET last_value = ? WHERE log = ?').run(v, log.log);
  }

  /** Writes many past entries at once (demo history, imports). */
  appendHistory(ownerUri: string, ownerId: string, entries: readonly { t: number; v: number | boolean }[]): number {
    const log = this.row(ownerUri, ownerId);
    const insert = this.sql('INSERT OR REPLACE INTO insights_entry (log, t, v) VALUES (?, ?, ?)');
    if (entries.length === 0) return 0;
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    transact(this.context.db, () => {
      for (const entry of entries) {
        insert.run(log.log, entry.t, Number(entry.v));
        from = Math.min(from, entry.t);
        to = Math.max(to, entry.t);
      }
      // Recompute the roll-ups of the hours the history touched.
      const first = Math.floor(from / HOUR_MS) * HOUR_MS;
      const last = Math.floor(to / HOUR_MS) * HOUR_MS + HOUR_MS;
      this.sql(
        `INSERT OR REPLACE INTO insights_hour (log, hour, sum, count, last_t, last_v)
         SELECT log, (t / 3600000) * 3600000 AS hour, SUM(v), COUNT(*), MAX(t), v FROM insights_entry
         WHERE log = ? AND t >= ? AND t < ? GROUP BY hour`,
      ).run(log.log, first, last);
    });
    return entries.length;
  }

  list() {
    return (this.sql('SELECT * FROM insights_log ORDER BY owner_uri, owner_id').all() as LogRow[]).map((r) => this.view(r));
  }

  get(id: string) {
    const split = id.lastIndexOf(':');
    if (split < 0) throw notFound('Log', id);
    return this.view(this.row(id.slice(0, split), id.slice(split + 1)));
  }

  entries(ownerUri: string, ownerId: string, resolution: Resolution, now = this.context.clock.now()) {
    const log = this.row(ownerUri, ownerId);
    const { window, step } = RESOLUTIONS[resolution];
    // Buckets are aligned to the step so that repeated queries answer the same points.
    const end = Math.floor(now / step) * step + step;
    const start = end - window;
    // SQLite answers a bare column from the row holding MAX(...): the last value of each bucket (booleans).
    const bucket = (column: string) => `(${column} - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS b`;
    const sql =
      step % HOUR_MS === 0
        ? log.type === 'boolean'
          ? `SELECT ${bucket('hour')}, MAX(last_t) AS last, last_v AS v FROM insights_hour WHERE log = ? AND hour >= ? AND hour < ? GROUP BY b ORDER BY b`
          : `SELECT ${bucket('hour')}, SUM(sum) / SUM(count) AS v FROM insights_hour WHERE log = ? AND hour >= ? AND hour < ? GROUP BY b ORDER BY b`
        : log.type === 'boolean'
          ? `SELECT ${bucket('t')}, MAX(t) AS last, v FROM insights_entry WHERE log = ? AND t >= ? AND t < ? GROUP BY b ORDER BY b`
          : `SELECT ${bucket('t')}, AVG(v) AS v FROM insights_entry WHERE log = ? AND t >= ? AND t < ? GROUP BY b ORDER BY b`;
    const rows = this.sql(sql).all(start, step, log.log, start, end) as { b: number; v: number | null }[];
    const decimals = log.decimals ?? 2;
    const values = rows.map((row) => ({
      t: new Date(start + row.b * step).toISOString(),
      v: row.v === null ? null : log.type === 'boolean' ? row.v !== 0 : Number(row.v.toFixed(decimals)),
    }));
    return {
      resolution,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      step,
      updatesIn: end - now,
      lastValue: this.lastValue(log),
      values,
    };
  }

  /** Whether a log exists. */
  has(ownerUri: string, ownerId: string): boolean {
    return this.sql('SELECT 1 FROM insights_log WHERE owner_uri = ? AND owner_id = ?').get(ownerUri, ownerId) !== undefined;
  }

  /** Hourly averages and last values of a log in [from, to). */
  hourly(ownerUri: string, ownerId: string, from: number, to: number): { hour: number; avg: number; last: number | null }[] {
    const log = this.row(ownerUri, ownerId);
    return this.sql(
      'SELECT hour, sum / count AS avg, last_v AS last FROM insights_hour WHERE log = ? AND hour >= ? AND hour < ? ORDER BY hour',
    ).all(log.log, from, to) as { hour: number; avg: number; last: number | null }[];
  }

  /** Every hour (start, ms) in which a device's `meter_power` or `measure_power` log has entries, oldest first. */
  energyHours(): number[] {
    return (
      this.sql(
        `SELECT DISTINCT h.hour AS hour FROM insights_hour h JOIN insights_log l ON l.log = h.log
         WHERE l.owner_uri LIKE 'homey:device:%' AND l.owner_id IN ('meter_power', 'measure_power') ORDER BY h.hour`,
      ).all() as { hour: number }[]
    ).map((row) => row.hour);
  }

  /** The last value of a log before `t`, or `null`. */
  valueBefore(ownerUri: string, ownerId: string, t: number): number | null {
    const log = this.row(ownerUri, ownerId);
    const row = this.sql('SELECT v FROM insights_entry WHERE log = ? AND t < ? ORDER BY t DESC LIMIT 1').get(log.log, t) as
      | { v: number | null }
      | undefined;
    return row?.v ?? null;
  }

  deleteEntries(ownerUri: string, ownerId: string): void {
    const log = this.row(ownerUri, ownerId);
    transact(this.context.db, () => {
      this.sql('DELETE FROM insights_entry WHERE log = ?').run(log.log);
      this.sql('DELETE FROM insights_hour WHERE log = ?').run(log.log);
      this.sql('UPDATE insights_log SET last_value = NULL WHERE log = ?').run(log.log);
    });
    this.context.events.entity('insights', 'log', 'update', this.get(`${ownerUri}:${ownerId}`), READ_SCOPE);
  }

  deleteLog(ownerUri: string, ownerId: string): void {
    const log = this.row(ownerUri, ownerId);
    transact(this.context.db, () => {
      this.sql('DELETE FROM insights_entry WHERE log = ?').run(log.log);
      this.sql('DELETE FROM insights_hour WHERE log = ?').run(log.log);
      this.sql('DELETE FROM insights_log WHERE log = ?').run(log.log);
    });
    this.context.events.entity('insights', 'log', 'delete', { id: `${ownerUri}:${ownerId}` }, READ_SCOPE);
  }

  deleteAll(): void {
    const ids = this.list().map((l) => l.id);
    transact(this.context.db, () => {
      this.sql('DELETE FROM insights_entry').run();
      this.sql('DELETE FROM insights_hour').run();
      this.sql('DELETE FROM insights_log').run();
    });
    for (const id of ids) this.context.events.entity('insights', 'log', 'delete', { id }, READ_SCOPE);
  }

  storage() {
    const logs = this.sql('SELECT COUNT(*) FROM insights_log').pluck().get() as number;
    const entries = this.sql('SELECT COUNT(*) FROM insights_entry').pluck().get() as number;
    // An entry row is a log number, an 8-byte time and an 8-byte value in a clustered b-tree: about 20 bytes.
    return { logs, entries, size: entries * 20 + logs * 200 };
  }

  private deleteOwner(ownerUri: string): void {
    const logs = this.sql('SELECT log, owner_id FROM insights_log WHERE owner_uri = ?').all(ownerUri) as {
      log: number;
      owner_id: string;
    }[];
    transact(this.context.db, () => {
      for (const { log } of logs) {
        this.sql('DELETE FROM insights_entry WHERE log = ?').run(log);
        this.sql('DELETE FROM insights_hour WHERE log = ?').run(log);
        this.sql('DELETE FROM insights_log WHERE log = ?').run(log);
      }
    });
    for (const { owner_id } of logs)
      this.context.events.entity('insights', 'log', 'delete', { id: `${ownerUri}:${owner_id}` }, READ_SCOPE);
  }

  private row(ownerUri: string, ownerId: string): LogRow {
    const row = this.sql('SELECT * FROM insights_log WHERE owner_uri = ? AND owner_id = ?').get(ownerUri, ownerId) as
      | LogRow
      | undefined;
    if (!row) throw notFound('Log', `${ownerUri}:${ownerId}`);
    return row;
  }

  private lastValue(row: LogRow): number | boolean | null {
    if (row.last_value === null) return null;
    return row.type === 'boolean' ? row.last_value !== 0 : row.last_value;
  }

  private view(row: LogRow) {
    const deviceId = row.owner_uri.startsWith('homey:device:') ? row.owner_uri.slice('homey:device:'.length) : undefined;
    const owner = deviceId ? this.devices.find(deviceId) : undefined;
    return {
      id: `${row.owner_uri}:${row.owner_id}`,
      ownerUri: row.owner_uri,
      ownerId: row.owner_id,
      ownerName: owner?.name ?? null,
      title: row.title,
      titleTrue: row.title_true,
      titleFalse: row.title_false,
      type: row.type,
      units: row.units,
      decimals: row.decimals,
      chartType: row.chart_type,
      lastValue: this.lastValue(row),
    };
  }
}
