import { HearthError, STORE_CART_HEADER } from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
import { bearerToken, requireUser } from '../../platform/auth';
import type { CloudPrincipal } from '../../platform/context';
import { hashSecret } from '../../platform/tokens';

/** Who is buying: a signed-in user, or a guest known by their cart's token (kept, like every token, as a hash). */
export type Buyer = { kind: 'user'; userId: string } | { kind: 'guest'; tokenHash: string };

/**
 * The buyer of a call the store serves to users and guests alike (declared `guestOrUser`). A Bearer token wins;
 * one that is no longer valid is refused (`invalid_token`, which clients answer by refreshing), never taken for a
 * guest. Otherwise the guest cart token of the `x-hearth-cart` header; neither is `missing_token`.
 */
export function buyerOf(request: FastifyRequest, principal: CloudPrincipal | null): Buyer {
  if (principal) return { kind: 'user', userId: requireUser(principal) };
  if (bearerToken(request) !== null) throw new HearthError('invalid_token', 'Invalid or expired token');
  const token = request.headers[STORE_CART_HEADER];
  if (typeof token !== 'string' || token === '')
    throw new HearthError('missing_token', `Missing Token: sign in, or send a guest cart’s token in ${STORE_CART_HEADER}`);
  return { kind: 'guest', tokenHash: hashSecret(token) };
}
