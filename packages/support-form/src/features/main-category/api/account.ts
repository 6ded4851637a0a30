import type { Hub, Order, Subscription, User } from '../../../types/entities';

type Raw = Record<string, unknown>;
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A hub record of the cloud user, with the facts the form sends along. */
export function toHub(raw: Raw): Hub {
  return {
    id: str(raw._id ?? raw.id),
    name: str(raw.name, 'Hub'),
    platform: raw.platform === 'cloud' ? 'cloud' : 'local',
    model: str(raw.model),
    modelName: str(raw.modelName, str(raw.model)),
    language: str(raw.language),
    region: str(raw.region),
    licenses: arr(raw.licenses).map((l) => str(l)),
    users: arr(raw.users),
    bridges: arr(raw.bridges),
    apps: arr(raw.apps).map((a) => {
      const app = a as Raw;
      return { id: str(app.id), version: str(app.version), channel: str(app.channel) || undefined };
    }),
    softwareVersion: str(raw.softwareVersion),
  };
}

/** The cloud user (`getAuthenticatedUser`, `GET /cloud/user/me`) in the shape the form reads. */
export function toUser(raw: Raw): User {
  const subscriptions: Subscription[] = Object.entries((raw.subscriptions as Record<string, Raw> | undefined) ?? {}).map(
    ([id, s]) => ({ id, startedAt: str(s?.startedAt) }),
  );
  const firstname = str(raw.firstname);
  const lastname = str(raw.lastname);
  const avatar = raw.avatar as User['avatar'];
  return {
    id: str(raw._id ?? raw.id),
    firstname,
    lastname,
    fullname: str(raw.fullname, `${firstname} ${lastname}`.trim()),
    email: str(raw.email),
    avatar: avatar ?? null,
    hubs: arr(raw.homeys).map((h) => toHub(h as Raw)),
    subscriptions,
  };
}

/** The user's orders (`store.getOrders`, `GET /store/user/order`) in the shape the form reads. */
export function toOrders(raw: unknown): Order[] {
  const list = Array.isArray(raw) ? raw : Object.values((raw as Raw) ?? {});
  return list.map((o) => {
    const order = o as Raw;
    const items = arr(order.items)
      .map((item) => str((item as Raw)?.name))
      .filter(Boolean);
    return {
      id: str(order._id ?? order.id),
      number: str(order.number) || undefined,
      date: str(order.date ?? order.createdAt),
      items,
    };
  });
}
