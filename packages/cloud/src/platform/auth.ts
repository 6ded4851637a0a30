import { HearthError } from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
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

/**
 * Resolves the Bearer access token of a request to its caller. Tokens are looked up by their hash; an unknown,
 * expired or revoked token is refused with `invalid_token` (clients refresh and retry once on it).
 */
export function createAuthenticator(context: CloudContext) {
  const { db } = context.database;
  return async (request: FastifyRequest): Promise<CloudPrincipal | null> => {
    const token = bearerToken(request);
    if (token === null) return null;
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
        'c.internal',
      ])
      .where('t.access_hash', '=', hashSecret(token))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.access_expires_at.getTime() <= Date.now()) {
      throw new HearthError('invalid_token', 'Invalid or expired token');
    }
    return {
      userId: row.user_id,
      clientId: row.client_id,
      scopes: row.scopes,
      internal: row.internal && row.user_id === null,
      tokenId: row.id,
      familyId: row.family_id,
    };
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
