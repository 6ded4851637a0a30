import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';

/**
 * A redirect address a client may register in place of fixed ones: the root (`<origin>/`) of any address a hub
 * registered with this cloud (local, secure local, relay, forwarded). The household web app is served by every hub
 * at its own origins, which no fixed list can name; hubs register only with the provider's internal secret, so a
 * stranger cannot add an origin to it.
 */
export const HUB_ROOT_REDIRECT = '{hub}/';

/**
 * Whether `uri` is one of `registered`, or the root of a registered hub's address where `HUB_ROOT_REDIRECT` is.
 * With `userId` (the person signing in is known: a code is about to be issued), that hub must also be one of theirs:
 * a hub's owner chooses the addresses it registers, so any other hub's origin would hand that owner the code.
 */
export async function redirectAllowed(
  db: Kysely<CloudSchema>,
  registered: readonly string[],
  uri: string,
  userId?: string,
): Promise<boolean> {
  if (uri !== HUB_ROOT_REDIRECT && registered.includes(uri)) return true;
  if (!registered.includes(HUB_ROOT_REDIRECT)) return false;
  let origin: string;
  try {
    const parsed = new URL(uri);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    if (`${parsed.origin}/` !== uri) return false;
    origin = parsed.origin;
  } catch {
    return false;
  }
  // Registered addresses carry no path but may differ in a trailing slash.
  const forms = [origin, `${origin}/`];
  let query = db
    .selectFrom('hubs')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('local_url', 'in', forms),
        eb('local_url_secure', 'in', forms),
        eb('remote_url', 'in', forms),
        eb('remote_url_forwarded', 'in', forms),
      ]),
    );
  if (userId !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('owner_user_id', '=', userId),
        eb.exists(
          eb
            .selectFrom('hub_users')
            .select('hub_users.hub_id')
            .whereRef('hub_users.hub_id', '=', 'hubs.id')
            .where('hub_users.user_id', '=', userId),
        ),
      ]),
    );
  return (await query.executeTakeFirst()) !== undefined;
}
