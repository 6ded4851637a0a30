import { ORIGIN_PROOF_PATH, verifyOriginProof } from '@hearth/contract/hub-secret';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { CloudContext } from '../../platform/context';
import { secretOfHub } from '../../platform/hub-secret';
import { newSecret } from '../../platform/tokens';
import { hostSuffix } from '../connect/network';

/**
 * A redirect address a client may register in place of fixed ones: the root (`<origin>/`) of any address a hub
 * registered with this cloud (local, secure local, relay, forwarded). The household web app is served by every hub
 * at its own origins, which no fixed list can name. Hubs register their addresses themselves, so a code goes to one
 * only as {@link hubRedirectFor} allows.
 */
export const HUB_ROOT_REDIRECT = '{hub}/';

/** The origin of `uri` when it is exactly the root (`<origin>/`) of an http(s) origin; `null` otherwise. */
function rootOrigin(uri: string): string | null {
  try {
    const parsed = new URL(uri);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return `${parsed.origin}/` === uri ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The hubs that registered `origin` as one of their addresses (with or without a trailing slash). */
function hubsAt(db: Kysely<CloudSchema>, origin: string) {
  const forms = [origin, `${origin}/`];
  return db
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
}

/**
 * Whether `uri` is one of `registered`, or the root of a registered hub's address where `HUB_ROOT_REDIRECT` is:
 * the sign-in page's check, before anyone signed in. {@link hubRedirectFor} decides once the person is known.
 */
export async function redirectAllowed(db: Kysely<CloudSchema>, registered: readonly string[], uri: string): Promise<boolean> {
  if (uri !== HUB_ROOT_REDIRECT && registered.includes(uri)) return true;
  if (!registered.includes(HUB_ROOT_REDIRECT)) return false;
  const origin = rootOrigin(uri);
  return origin !== null && (await hubsAt(db, origin).executeTakeFirst()) !== undefined;
}

/** Where a code may go, and the hub it is then bound to (`null`: a fixed address, the code is the account's). */
export type HubRedirect = { allowed: false } | { allowed: true; hubId: string | null };

/** How long the cloud waits for a hub's origin to answer its proof. */
const PROOF_TIMEOUT_MS = 3000;

/**
 * Where the code of `userId` may go, just before it is issued. A fixed registered address takes it unbound. The
 * root of a hub's address takes it only when (1) the hub is the person's (owner or member) — a hub's owner
 * chooses the addresses it registers, so any other hub's origin would hand that owner the code — and (2) the hub
 * proved it serves that origin: the relay origin the cloud itself gives the hub counts as proven; any other
 * origin must answer a fresh nonce at {@link ORIGIN_PROOF_PATH} with the hub's {@link originProof}. The code is
 * then bound to that hub: its tokens ask for delegation to that hub only (see `audience_hub_id`).
 */
export async function hubRedirectFor(
  context: CloudContext,
  registered: readonly string[],
  uri: string,
  userId: string,
): Promise<HubRedirect> {
  if (uri !== HUB_ROOT_REDIRECT && registered.includes(uri)) return { allowed: true, hubId: null };
  if (!registered.includes(HUB_ROOT_REDIRECT)) return { allowed: false };
  const origin = rootOrigin(uri);
  if (origin === null) return { allowed: false };
  const hubs = await hubsAt(context.database.db, origin)
    .where((eb) =>
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
    )
    .execute();
  for (const { id } of hubs) if (await servesOrigin(context, id, origin)) return { allowed: true, hubId: id };
  return { allowed: false };
}

/** Whether hub `hubId` proves it serves `origin` (its cloud-given relay origin, or a fresh proof fetched there). */
async function servesOrigin(context: CloudContext, hubId: string, origin: string): Promise<boolean> {
  if (new URL(origin).hostname === `${hubId}.${hostSuffix(context)}`) return true;
  const secret = secretOfHub(context, hubId);
  if (secret === null) return false;
  const nonce = newSecret();
  try {
    const answer = await fetch(`${origin}${ORIGIN_PROOF_PATH}?nonce=${encodeURIComponent(nonce)}`, {
      redirect: 'error',
      signal: AbortSignal.timeout(PROOF_TIMEOUT_MS),
    });
    if (!answer.ok) return false;
    const body = (await answer.json()) as { hubId?: unknown; proof?: unknown };
    return body.hubId === hubId && typeof body.proof === 'string' && verifyOriginProof(secret, hubId, nonce, body.proof);
  } catch (error) {
    context.log.info({ err: error, hubId, origin }, 'a hub origin did not answer the origin proof');
    return false;
  }
}
