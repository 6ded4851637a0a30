import { randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../../core/clock';
import type { HubContext } from '../../platform/context';
import type { EventViewer } from '../../platform/events';
import { type HubDatabase, type Migration, transact } from '../../store/database';

export type Priority = 'INFO' | 'WARNING' | 'CRITICAL';

export interface StoredNotification {
  id: string;
  ownerUri: string;
  dateCreated: string;
  dateExpires: string | null;
  excerpt: string;
  icon: string | null;
  priority: Priority;
  roles: string[];
  meta: Record<string, unknown>;
}

export interface NotificationOwner {
  uri: string;
  name: string;
  enabled: boolean;
  push: boolean;
}

export const notificationMigrations: Migration[] = [
  {
    id: 'notifications-001-create',
    up: (db) => {
      db.exec(`CREATE TABLE notifications_owner (
        uri TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        push INTEGER NOT NULL DEFAULT 1
      )`);
      db.exec(`CREATE TABLE notifications_notification (
        id TEXT PRIMARY KEY,
        owner_uri TEXT NOT NULL REFERENCES notifications_owner (uri),
        date_created TEXT NOT NULL,
        date_expires TEXT,
        excerpt TEXT NOT NULL,
        icon TEXT,
        priority TEXT NOT NULL,
        roles TEXT NOT NULL,
        meta TEXT NOT NULL
      )`);
      db.exec(`CREATE TABLE notifications_read (
        notification_id TEXT NOT NULL REFERENCES notifications_notification (id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        read_at TEXT NOT NULL,
        PRIMARY KEY (notification_id, user_id)
      )`);
    },
  },
];

interface NotificationRow {
  id: string;
  owner_uri: string;
  date_created: string;
  date_expires: string | null;
  excerpt: string;
  icon: string | null;
  priority: Priority;
  roles: string;
  meta: string;
}

interface OwnerRow {
  uri: string;
  name: string;
  enabled: number;
  push: number;
}

const toNotification = (row: NotificationRow): StoredNotification => ({
  id: row.id,
  ownerUri: row.owner_uri,
  dateCreated: row.date_created,
  dateExpires: row.date_expires,
  excerpt: row.excerpt,
  icon: row.icon,
  priority: row.priority,
  roles: JSON.parse(row.roles) as string[],
  meta: JSON.parse(row.meta) as Record<string, unknown>,
});

const toOwner = (row: OwnerRow): NotificationOwner => ({
  uri: row.uri,
  name: row.name,
  enabled: row.enabled === 1,
  push: row.push === 1,
});

/** A readable name for an owner uri: `homey:app:com.example.clock` → `com.example.clock`, `homey:manager:updates` → `Updates`. */
const ownerName = (uri: string): string => {
  const [, type, ...rest] = uri.split(':');
  const id = rest.join(':');
  return type === 'manager' ? id.charAt(0).toUpperCase() + id.slice(1) : id || uri;
};

export interface NewNotification {
  ownerUri: string;
  ownerName?: string;
  excerpt: string;
  priority?: Priority;
  roles?: string[];
  dateExpires?: string | null;
  icon?: string | null;
  meta?: Record<string, unknown>;
}

/** Notifications of the home. Expired ones are never answered and are removed when next listed. */
export class NotificationStore {
  constructor(
    private readonly db: HubDatabase,
    private readonly clock: Clock,
  ) {}

  /** Creates a notification; answers `null` when its owner's notifications are switched off. */
  create(input: NewNotification): StoredNotification | null {
    this.db
      .prepare('INSERT INTO notifications_owner (uri, name) VALUES (?, ?) ON CONFLICT (uri) DO NOTHING')
      .run(input.ownerUri, input.ownerName ?? ownerName(input.ownerUri));
    if (!this.owner(input.ownerUri)?.enabled) return null;
    const notification: StoredNotification = {
      id: randomUUID(),
      ownerUri: input.ownerUri,
      dateCreated: isoNow(this.clock),
      dateExpires: input.dateExpires ?? null,
      excerpt: input.excerpt,
      icon: input.icon ?? null,
      priority: input.priority ?? 'INFO',
      roles: input.roles ?? [],
      meta: input.meta ?? {},
    };
    this.db
      .prepare(
        `INSERT INTO notifications_notification (id, owner_uri, date_created, date_expires, excerpt, icon, priority, roles, meta)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        notification.id,
        notification.ownerUri,
        notification.dateCreated,
        notification.dateExpires,
        notification.excerpt,
        notification.icon,
        notification.priority,
        JSON.stringify(notification.roles),
        JSON.stringify(notification.meta),
      );
    return notification;
  }

  purgeExpired(now = new Date(this.clock.now())): number {
    return this.db
      .prepare('DELETE FROM notifications_notification WHERE date_expires IS NOT NULL AND date_expires <= ?')
      .run(now.toISOString()).changes;
  }

  list(): StoredNotification[] {
    const now = isoNow(this.clock);
    return (
      this.db
        .prepare(
          'SELECT * FROM notifications_notification WHERE date_expires IS NULL OR date_expires > ? ORDER BY date_created DESC, id',
        )
        .all(now) as NotificationRow[]
    ).map(toNotification);
  }

  get(id: string): StoredNotification | undefined {
    const row = this.db
      .prepare('SELECT * FROM notifications_notification WHERE id = ? AND (date_expires IS NULL OR date_expires > ?)')
      .get(id, isoNow(this.clock)) as NotificationRow | undefined;
    return row && toNotification(row);
  }

  isReadBy(id: string, userId: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM notifications_read WHERE notification_id = ? AND user_id = ?').get(id, userId) !== undefined
    );
  }

  markRead(id: string, userId: string): void {
    this.db
      .prepare('INSERT INTO notifications_read (notification_id, user_id, read_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
      .run(id, userId, isoNow(this.clock));
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM notifications_notification WHERE id = ?').run(id).changes > 0;
  }

  owners(): NotificationOwner[] {
    return (this.db.prepare('SELECT * FROM notifications_owner ORDER BY uri').all() as OwnerRow[]).map(toOwner);
  }

  owner(uri: string): NotificationOwner | undefined {
    const row = this.db.prepare('SELECT * FROM notifications_owner WHERE uri = ?').get(uri) as OwnerRow | undefined;
    return row && toOwner(row);
  }

  setOwner(uri: string, changes: { enabled?: boolean; push?: boolean }): NotificationOwner | undefined {
    const owner = this.owner(uri);
    if (!owner) return undefined;
    this.db
      .prepare('UPDATE notifications_owner SET enabled = ?, push = ? WHERE uri = ?')
      .run((changes.enabled ?? owner.enabled) ? 1 : 0, (changes.push ?? owner.push) ? 1 : 0, uri);
    return this.owner(uri);
  }

  /** How many notifications a user of `role` may see and has not read yet. */
  unreadCount(userId: string, role: string): number {
    return this.list().filter((n) => visibleTo(n, role) && !this.isReadBy(n.id, userId)).length;
  }
}

/**
 * Posts notifications for any part of the hub (updates, backups, flows, apps): the notifications manager's
 * service, which others use instead of its tables.
 */
export class Notifier {
  readonly #store: NotificationStore;

  constructor(private readonly context: HubContext) {
    this.#store = new NotificationStore(context.db, context.clock);
  }

  /**
   * Stores the notification durably and announces it as `notification.create` (and `notification.created` on
   * the domain bus). Answers `null` when the owner's notifications are switched off.
   */
  notify(input: NewNotification): StoredNotification | null {
    return notify(this.context, this.#store, input);
  }

  /** How many notifications `userId` (of `role`) may see and has not read. */
  unreadCount(userId: string, role: string): number {
    return this.#store.unreadCount(userId, role);
  }
}

function notify(context: HubContext, store: NotificationStore, input: NewNotification): StoredNotification | null {
  const notification = transact(context.db, () => store.create(input));
  if (notification) {
    const data = { ...notification, iconObj: null, readBy: [] };
    const view = (viewer: EventViewer) => (visibleTo(notification, viewer.role) ? data : undefined);
    context.events.entity('notifications', 'notification', 'create', data, 'homey.notifications.readonly', view);
    context.bus.emit('notification.created', {
      notificationId: notification.id,
      ownerUri: notification.ownerUri,
      excerpt: notification.excerpt,
    });
  }
  return notification;
}

/**
 * Whether a user of `role` may see the notification: it names no roles, or theirs. The owner is the household's
 * first manager, so what is meant for managers reaches the owner too.
 */
export const visibleTo = (notification: StoredNotification, role: string): boolean =>
  notification.roles.length === 0 ||
  notification.roles.includes(role) ||
  (role === 'owner' && notification.roles.includes('manager'));
