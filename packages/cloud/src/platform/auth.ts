import { HearthError } from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
import type { CloudContext, CloudPrincipal } from './context';

/**
 * Resolves the Bearer access token of a request to its caller. Until accounts exist every presented token
 * is unknown, so any call that needs one is refused with `invalid_token`.
 */
export function createAuthenticator(_context: CloudContext) {
  return (request: FastifyRequest): CloudPrincipal | null => {
    const header = request.headers.authorization;
    if (!header) return null;
    throw new HearthError('invalid_token', 'Invalid or expired token');
  };
}
