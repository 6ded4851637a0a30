import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { Statement } from 'better-sqlite3';
import type { HubContext } from '../../platform/context';
import { type AppManifest, type AppPackage, type DriverManifest, flatSettings } from '../../runtime/manifest';
import { type Migration, rollbackEpoch, transact } from '../../store/database';
import { Statements } from '../../store/statements';

export const appMigrations: Migration[] = [
  {
    id: 'apps-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE app (
        id TEXT PRIMARY KEY,
        manifest TEXT NOT NULL,
        origin TEXT NOT NULL,
        channel TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        autoupdate INTEGER NOT NULL DEFAULT 1,
        builtin INTEGER NOT NULL DEFAULT 0,
        installed_at TEXT NOT NULL
      );
      CREATE TABLE app_setting (
        app_id TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (app_id, name)
      ) WITHOUT ROWID`),
  },
  {
    // The folder of an app's code: apps with an app.js there run in their own process.
    id: 'apps-002-dir',
    up: (db) => db.exec('ALTER TABLE app ADD COLUMN dir TEXT'),
  },
];

export type AppOrigin = 'appstore' | 'devkit_run' | 'devkit_install' | 'unknown';
export type AppChannel = 'stable' | 'beta' | 'alpha';

interface AppRow {
  id: string;
  manifest: string;
  origin: AppOrigin;
  channel: AppChannel;
  enabled: number;
  autoupdate: number;
  builtin: number;
  installed_at: string;
  dir: string | null;
}

export interface InstalledApp {
  readonly id: string;
  readonly manifest: AppManifest;
  readonly origin: AppOrigin;
  readonly channel: AppChannel;
  readonly enabled: boolean;
  readonly autoupdate: boolean;
  readonly builtin: boolean;
  /** The folder of the app's package, when the hub has one. */
  readonly dir: string | null;
}

const toApp = (row: AppRow): InstalledApp => ({
  id: row.id,
  manifest: JSON.parse(row.manifest) as AppManifest,
  origin: row.origin,
  channel: row.channel,
  enabled: row.enabled === 1,
  autoupdate: row.autoupdate === 1,
  builtin: row.builtin === 1,
  dir: row.dir,
});

/** A driver of an installed app, resolved from its full id `homey:app:<appId>:<driverId>`. */
export interface ResolvedDriver {
  readonly app: InstalledApp;
  readonly driver: DriverManifest;
  readonly id: string;
}

export const driverFullId = (appId: string, driverId: string): string => `homey:app:${appId}:${driverId}`;

/**
 * The installed-apps catalogue: which apps the hub has (their manifest, origin, channel, flags and folder) and
 * their settings, in SQLite. It runs nothing; the app hosts do (`host.ts`).
 */
export class InstalledApps {
  /** Prepared statements, prepared once per catalogue. */
  #statements: Statements | undefined;

  private sql(text: string): Statement {
    this.#statements ??= new Statements(this.context.db);
    return this.#statements.get(text);
  }

  constructor(private readonly context: HubContext) {}

  /**
   * Installed apps, parsed once: every capability write looks its driver up here. Writes below reset it, as
   * does a group of changes undone after it was made (the database's rollback epoch).
   */
  #cache: Map<string, InstalledApp> | undefined;
  #cacheEpoch = 0;

  #apps(): Map<string, InstalledApp> {
    const epoch = rollbackEpoch(this.context.db);
    if (!this.#cache || this.#cacheEpoch !== epoch) {
      this.#cache = new Map((this.sql('SELECT * FROM app ORDER BY id').all() as AppRow[]).map((row) => [row.id, toApp(row)]));
      this.#cacheEpoch = epoch;
    }
    return this.#cache;
  }

  list(): InstalledApp[] {
    return [...this.#apps().values()];
  }

  find(id: string): InstalledApp | undefined {
    return this.#apps().get(id);
  }

  require(id: string): InstalledApp {
    const app = this.find(id);
    if (!app) throw notFound('App', id);
    return app;
  }

  /** Every driver of every installed app. */
  drivers(): ResolvedDriver[] {
    return this.list().flatMap((app) =>
      (app.manifest.drivers ?? []).map((driver) => ({ app, driver, id: driverFullId(app.id, driver.id) })),
    );
  }

  findDriver(fullId: string): ResolvedDriver | undefined {
    const match = /^homey:app:([^:]+):([^:]+)$/.exec(fullId);
    if (!match) return undefined;
    const app = this.find(match[1] as string);
    const driver = app?.manifest.drivers?.find((d) => d.id === match[2]);
    return app && driver ? { app, driver, id: fullId } : undefined;
  }

  /** Records an app (new, or a new version of one); settings declared with a default start out with it. */
  write(pkg: AppPackage, origin: AppOrigin, channel: AppChannel): InstalledApp {
    transact(this.context.db, () => {
      this.sql(
        `INSERT INTO app (id, manifest, origin, channel, builtin, installed_at, dir) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET manifest = excluded.manifest, origin = excluded.origin, channel = excluded.channel,
           dir = excluded.dir`,
      ).run(
        pkg.manifest.id,
        JSON.stringify(pkg.manifest),
        origin,
        channel,
        pkg.builtin ? 1 : 0,
        new Date(this.context.clock.now()).toISOString(),
        pkg.dir || null,
      );
      this.#cache = undefined;
      // Values set before (a reinstall) are kept.
      const insert = this.sql('INSERT OR IGNORE INTO app_setting (app_id, name, value) VALUES (?, ?, ?)');
      for (const setting of flatSettings(pkg.manifest.settings)) {
        if (setting.value !== undefined) insert.run(pkg.manifest.id, setting.id, JSON.stringify(setting.value));
      }
    });
    return this.require(pkg.manifest.id);
  }

  /** Forgets an app; with `purgeSettings` its settings go too (else a reinstall finds them). */
  delete(id: string, purgeSettings: boolean): void {
    transact(this.context.db, () => {
      this.sql('DELETE FROM app WHERE id = ?').run(id);
      this.#cache = undefined;
      if (purgeSettings) this.sql('DELETE FROM app_setting WHERE app_id = ?').run(id);
    });
  }

  setAutoupdate(id: string, autoupdate: boolean): InstalledApp {
    this.require(id);
    this.sql('UPDATE app SET autoupdate = ? WHERE id = ?').run(autoupdate ? 1 : 0, id);
    this.#cache = undefined;
    return this.require(id);
  }

  setEnabled(id: string, enabled: boolean): InstalledApp {
    this.require(id);
    this.sql('UPDATE app SET enabled = ? WHERE id = ?').run(enabled ? 1 : 0, id);
    this.#cache = undefined;
    return this.require(id);
  }

  // --- settings (homey.app.control) ---

  settings(id: string): Record<string, unknown> {
    this.require(id);
    const rows = this.sql('SELECT name, value FROM app_setting WHERE app_id = ? ORDER BY name').all(id) as {
      name: string;
      value: string;
    }[];
    return Object.fromEntries(rows.map((r) => [r.name, JSON.parse(r.value)]));
  }

  setting(id: string, name: string): unknown {
    this.require(id);
    const row = this.sql('SELECT value FROM app_setting WHERE app_id = ? AND name = ?').get(id, name) as
      | { value: string }
      | undefined;
    if (!row) throw notFound('Setting', name);
    return JSON.parse(row.value);
  }

  setSetting(id: string, name: string, value: unknown): void {
    this.require(id);
    if (value === undefined) throw new HearthError('missing_parameter', 'Missing Parameter: value');
    const json = JSON.stringify(value);
    if (json.length > 64 * 1024) throw invalidParameter('value', 'A setting holds at most 64 KiB of JSON');
    this.sql(
      'INSERT INTO app_setting (app_id, name, value) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET value = excluded.value',
    ).run(id, name, json);
  }

  unsetSetting(id: string, name: string): void {
    this.require(id);
    const changes = this.sql('DELETE FROM app_setting WHERE app_id = ? AND name = ?').run(id, name).changes;
    if (changes === 0) throw notFound('Setting', name);
  }

  locale(id: string): Record<string, unknown> {
    const app = this.require(id);
    const locales = app.manifest.locales ?? {};
    return (locales[this.context.config.language] ?? locales.en ?? {}) as Record<string, unknown>;
  }
}
