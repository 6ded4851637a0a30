import { cloudOperations, HearthError, operationId } from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
import type { CloudDatabase } from '../database';
import type { CloudContext, CloudPrincipal } from './context';
import { hashSecret } from './tokens';

/**
 * The Bearer token of a request, or `null` when it carries none. Other schemes (the token endpoint's HTTP Basic
 * client authentication) are not a Bearer token.
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header || !/^Bearer(\s|$)/i.test(header)) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new HearthError('invalid_token', 'Invalid or expired token');
  return match[1] as string;
}

/** How long a checked token is trusted without asking the database again. */
const CACHE_MS = 1000;
const CACHE_MAX = 10_000;
const caches = new WeakMap<CloudDatabase, Map<string, { principal: CloudPrincipal; until: number }>>();

/**
 * Forgets every cached token check: called whenever tokens are revoked, so this node refuses them at once.
 * (Other nodes of a cluster notice within {@link CACHE_MS}.)
 */
export function forgetCachedTokens(database: CloudDatabase): void {
  caches.get(database)?.clear();
}

/**
 * Resolves the Bearer access token of a request to its caller. Tokens are looked up by their hash; an unknown,
 * expired or revoked token is refused with `invalid_token` (clients refresh and retry once on it). A valid
 * token is remembered for a second, which spares the lookup on bursts of calls.
 */
export function createAuthenticator(context: CloudContext) {
  const resolve = createTokenResolver(context);
  return async (request: FastifyRequest): Promise<CloudPrincipal | null> => {
    const token = bearerToken(request);
    if (token === null) return null;
    const principal = await resolve(token);
    const schema = request.routeOptions?.schema as { operationId?: string } | undefined;
    if (principal.audienceHubId && !HUB_BOUND_OPERATIONS.has(schema?.operationId ?? '')) throw hubBoundRefusal();
    return principal;
  };
}

/**
 * What a token bound to a hub may call: delegation to that hub (see `hubRedirectFor`), and reading who the person
 * is, for the web app's hub switcher (their hubs' names and ids). The hub learns the person's name and e-mail from
 * the delegation token anyway; everything that reads other records or changes the account stays refused.
 */
const HUB_BOUND_OPERATIONS = new Set([
  operationId(cloudOperations.cloud.createDelegationToken),
  operationId(cloudOperations.cloud.getAuthenticatedUser),
]);

const hubBoundRefusal = () =>
  new HearthError('forbidden', 'This token was issued to one hub’s web app: it only signs in to that hub');

/** Refuses a token bound to one hub, for the calls that resolve tokens outside the Bearer header. */
export function refuseHubBound(principal: CloudPrincipal): CloudPrincipal {
  if (principal.audienceHubId) throw hubBoundRefusal();
  return principal;
}

/**
 * Resolves an access token to its caller, as {@link createAuthenticator} does for the Bearer header: for the
 * calls whose wire carries the token elsewhere (`?token=` of the webhook service).
 */
export function createTokenResolver(context: CloudContext) {
  const { db } = context.database;
  let cache = caches.get(context.database);
  if (!cache) {
    cache = new Map();
    caches.set(context.database, cache);
  }
  const remembered = cache;
  return async (token: string): Promise<CloudPrincipal> => {
    const hash = hashSecret(token);
    const now = context.clock.now();
    const hit = remembered.get(hash);
    if (hit && hit.until > now) return hit.principal;
    const row = await db
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
      .select([
        't.id',
        't.family_id',
        't.user_id',
        't.client_id',
        't.scopes',
        't.access_expires_at',
        't.revoked_at',
        't.audience_hub_id',
        'c.internal',
      ])
      .where('t.access_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.access_expires_at.getTime() <= now) {
      remembered.delete(hash);
      throw new HearthError('invalid_token', 'Invalid or expired token');
    }
    const principal: CloudPrincipal = {
      userId: row.user_id,
      clientId: row.client_id,
      scopes: row.scopes,
      internal: row.internal && row.user_id === null,
      tokenId: row.id,
      familyId: row.family_id,
      audienceHubId: row.audience_hub_id,
    };
    if (remembered.size >= CACHE_MAX) remembered.clear();
    remembered.set(hash, { principal, until: Math.min(now + CACHE_MS, row.access_expires_at.getTime()) });
    return principal;
  };
}

/** The signed-in user of a call; refuses client-only sessions. */
export function requireUser(principal: CloudPrincipal): string {
  if (principal.userId === null) throw new HearthError('forbidden', 'This call needs a signed-in user');
  return principal.userId;
}

/** Refuses a call about another user's account unless the caller is internal. */
export function requireSelf(principal: CloudPrincipal, userId: string): void {
  if (principal.internal) return;
  if (principal.userId === null || principal.userId !== userId)
    throw new HearthError('forbidden', 'You may only access your own account');
}
