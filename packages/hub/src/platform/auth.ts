import { HearthError } from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
import type { HubContext, HubPrincipal } from './context';
import type { HubSession } from './identity/sessions';
import { intersectedScopes } from './roles';

/** Reads the Bearer token of a request; `null` when there is none. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new HearthError('invalid_token', 'Authorization header must be "Bearer <token>"');
  return match[1] ?? null;
}

/** `lastUsed` is refreshed at most this often, so reads do not each cost a durable write. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The caller a live session stands for. Scope checks use the session's intersected scopes (requested ∩ the
 * user's role); `scopes` is `null` (passes every check) only for a session with no scopes set whose role
 * may hold every scope.
 */
export function principalForSession(context: HubContext, session: HubSession): HubPrincipal {
  const user = context.users.get(session.userId);
  if (!user?.enabled) throw new HearthError('invalid_token', 'Invalid or expired token');
  const scopes = intersectedScopes(session.scopes, user.role);
  return {
    sessionId: session.id,
    userId: session.userId,
    sessionType: session.type,
    role: user.role,
    scopes: session.scopes === null && scopes.includes('homey') ? null : scopes,
    internal: false,
  };
}

interface Resolved {
  principal: HubPrincipal;
  expiresAt: number;
  lastUsed: number;
  sessionsVersion: number;
  usersVersion: number;
}

const MAX_RESOLVED = 10_000;

/**
 * Resolves session tokens and personal access tokens to their callers on one hub. An answer is kept until any
 * session or user changes (a revoked session, a disabled user or a new role is seen by the very next request) or
 * the session expires, so a request by a known token costs no queries.
 */
export class Authenticator {
  readonly #resolved = new Map<string, Resolved>();

  constructor(private readonly context: HubContext) {}

  /** The caller a request's bearer token names, or `null` without a token. */
  readonly authenticate = (request: FastifyRequest): HubPrincipal | null => {
    const token = bearerToken(request);
    return token === null ? null : this.principalForToken(token);
  };

  principalForToken(token: string): HubPrincipal {
    const { context } = this;
    const cache = this.#resolved;
    const now = context.clock.now();
    const hit = cache.get(token);
    if (
      hit &&
      hit.sessionsVersion === context.sessions.version &&
      hit.usersVersion === context.users.version &&
      hit.expiresAt > now &&
      now - hit.lastUsed <= TOUCH_INTERVAL_MS
    ) {
      return hit.principal;
    }
    const session = context.sessions.findByToken(token);
    if (!session) {
      cache.delete(token);
      throw new HearthError('invalid_token', 'Invalid or expired token');
    }
    const principal = principalForSession(context, session);
    let lastUsed = session.lastUsed === null ? 0 : Date.parse(session.lastUsed);
    if (now - lastUsed > TOUCH_INTERVAL_MS) {
      context.sessions.touch(session.id);
      lastUsed = now;
    }
    if (cache.size >= MAX_RESOLVED) cache.clear();
    cache.set(token, {
      principal,
      expiresAt: session.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(session.expiresAt),
      lastUsed,
      sessionsVersion: context.sessions.version,
      usersVersion: context.users.version,
    });
    return principal;
  }
}
