import { HearthError } from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
import type { HubContext, HubPrincipal } from './context';

/** Reads the Bearer token of a request; `null` when there is none. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new HearthError('invalid_token', 'Authorization header must be "Bearer <token>"');
  return match[1] ?? null;
}

/** Resolves a session token or personal access token to the caller. */
export function principalForToken(context: HubContext, token: string): HubPrincipal {
  const session = context.sessions.findByToken(token);
  if (!session) throw new HearthError('invalid_token', 'Invalid or expired token');
  context.sessions.touch(session.id);
  return {
    sessionId: session.id,
    userId: session.userId,
    sessionType: session.type,
    scopes: session.scopes,
    internal: false,
  };
}

export function createAuthenticator(context: HubContext) {
  return (request: FastifyRequest): HubPrincipal | null => {
    const token = bearerToken(request);
    return token === null ? null : principalForToken(context, token);
  };
}
