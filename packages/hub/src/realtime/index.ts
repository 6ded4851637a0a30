import { type ErrorBody, HearthError, hasScope, notFound } from '@hearth/contract';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { type Authenticator, principalForSession } from '../platform/auth';
import type { HubContext, HubPrincipal } from '../platform/context';
import type { HubEvent } from '../platform/events';
import { runApiCall } from './api';
import { managerOfUri, readScopesOf } from './uris';

/** What a connection proved in its handshake; `/api` sockets on the same connection share it. */
interface Authorised {
  token: string;
  principal: HubPrincipal;
  expiresAt: number;
}

/**
 * Subscriptions to items that belong to one user: a pair session's events (its views moving on, the driver's
 * emits) go only to the user who opened it, and are answered to anyone else as if the session did not exist.
 */
export interface SubscriptionGuards {
  ownsPairSession(userId: string, sessionId: string): boolean;
}

const PAIR_SESSION_URI = /^homey:pairsession:([^:\s]+)$/;

export interface Realtime {
  readonly io: Server;
  stop(): Promise<void>;
}

/** How long an `/api` join waits for the handshake on its connection (the clients' handshake timeout). */
const HANDSHAKE_WAIT_MS = 10_000;

/** How long a connection may stay open without proving who it is, unless the hub's configuration says otherwise. */
const PROOF_DEADLINE_MS = 30_000;

type Ack = (error: ErrorBody | null, result?: unknown) => void;

const errorBody = (error: unknown): ErrorBody =>
  (error instanceof HearthError ? error : new HearthError('internal_error')).toBody();

/** Calls `ack` when the client sent one; clients may emit without. */
const ackOf = (candidate: unknown): Ack => (typeof candidate === 'function' ? (candidate as Ack) : () => {});

/**
 * The hub's realtime socket: socket.io on the hub's own port at `/socket.io/`, speaking Engine.IO 3 (the
 * ecosystem's clients) and 4. A client proves itself with `handshakeClient` on the root namespace, then joins
 * `/api` on the same connection without a token; there it subscribes to URIs, receives events named by the URI,
 * and runs operations through the `api` event exactly as over HTTP.
 */
export function startRealtime(
  app: FastifyInstance,
  context: HubContext,
  auth: Authenticator,
  guards: SubscriptionGuards,
): Realtime {
  const io = new Server(app.server, {
    path: '/socket.io/',
    allowEIO3: true,
    pingInterval: 5000,
    pingTimeout: 8000,
    serveClient: false,
    cors: { origin: true, credentials: false },
  });
  // Keyed by the underlying Engine.IO connection, so it goes away with it.
  const handshakes = new WeakMap<object, Authorised>();
  /** Connections that proved who they are once (a handshake, or an `/api` join with a token). */
  const proven = new WeakSet<object>();
  // A connection that has not proved itself by the deadline is closed: an open socket costs the hub (and, through
  // the cloud's relay, the household's room there) whatever it does not say.
  const deadlineMs = context.config.realtimeHandshakeDeadlineMs ?? PROOF_DEADLINE_MS;
  io.engine.on('connection', (conn: { close(): void; once(event: 'close', listener: () => void): void }) => {
    const cancel = context.clock.setTimeout(() => {
      if (!proven.has(conn)) conn.close();
    }, deadlineMs);
    conn.once('close', cancel);
  });
  const rootConnections = new WeakSet<object>();
  /** `/api` joins waiting for the handshake of their connection. */
  const pending = new WeakMap<object, Set<(authorised: Authorised | null) => void>>();
  const settlePending = (conn: object, authorised: Authorised | null) => {
    const waiting = pending.get(conn);
    pending.delete(conn);
    for (const settle of waiting ?? []) settle(authorised);
  };
  const api = io.of('/api');

  const authorise = (token: unknown): Authorised => {
    if (typeof token !== 'string' || token === '') throw new HearthError('missing_token', 'Missing Token');
    const principal = auth.principalForToken(token);
    const session = context.sessions.get(principal.sessionId);
    const expiresAt = session?.expiresAt ? Date.parse(session.expiresAt) : Number.POSITIVE_INFINITY;
    return { token, principal, expiresAt };
  };

  // A middleware runs as the root CONNECT packet is read, before an `/api` CONNECT that follows it on the
  // same connection; the `connection` event would come a tick too late to tell that join to wait.
  io.use((socket, next) => {
    if (!rootConnections.has(socket.conn)) {
      rootConnections.add(socket.conn);
      socket.conn.once('close', () => settlePending(socket.conn, null));
    }
    next();
  });

  io.on('connection', (socket) => {
    socket.on('handshakeClient', (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      try {
        const { token, homeyId } = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
        if (homeyId !== undefined && homeyId !== null && homeyId !== context.config.id) {
          throw new HearthError('not_found', `This is hub ${context.config.id}, not ${String(homeyId)}`);
        }
        const authorised = authorise(token);
        handshakes.set(socket.conn, authorised);
        proven.add(socket.conn);
        reply(null, { namespace: '/api' });
        settlePending(socket.conn, authorised);
      } catch (error) {
        handshakes.delete(socket.conn);
        reply(errorBody(error));
      }
    });
  });

  // `/api` trusts the handshake made on the same connection; current clients may send `auth: {token}` instead.
  // After a reconnect a client rejoins `/api` at once and handshakes again on `/` right after, so a connection
  // whose root socket has not handshaken yet waits for it rather than being refused.
  api.use((socket, next) => {
    const accept = (authorised: Authorised) => {
      socket.data.auth = authorised;
      proven.add(socket.conn);
      next();
    };
    const refuse = (error: unknown) => {
      const failure = new Error(errorBody(error).error_description) as Error & { data?: ErrorBody };
      failure.data = errorBody(error);
      next(failure);
    };
    const done = handshakes.get(socket.conn);
    if (done) return accept(done);
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (token !== undefined) {
      try {
        return accept(authorise(token));
      } catch (error) {
        return refuse(error);
      }
    }
    if (!rootConnections.has(socket.conn)) return refuse(new HearthError('missing_token', 'Handshake first: handshakeClient'));
    const timer = setTimeout(() => {
      pending.get(socket.conn)?.delete(settle);
      refuse(new HearthError('missing_token', 'Handshake first: handshakeClient'));
    }, HANDSHAKE_WAIT_MS);
    const settle = (authorised: Authorised | null) => {
      clearTimeout(timer);
      if (authorised) accept(authorised);
      else refuse(new HearthError('missing_token', 'Handshake first: handshakeClient'));
    };
    const waiting = pending.get(socket.conn) ?? new Set();
    waiting.add(settle);
    pending.set(socket.conn, waiting);
  });

  const authOf = (socket: Socket): Authorised => socket.data.auth as Authorised;

  api.on('connection', (socket) => {
    socket.on('subscribe', (uri: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      try {
        const manager = managerOfUri(uri);
        const { principal } = authOf(socket);
        const scopes = readScopesOf(manager);
        if (!scopes.some((scope) => hasScope(principal.scopes, scope))) {
          throw new HearthError('missing_scopes', `Missing Scopes: ${scopes.join(' or ')}`);
        }
        const pairSession = PAIR_SESSION_URI.exec(uri as string)?.[1];
        if (pairSession !== undefined && !guards.ownsPairSession(principal.userId, pairSession)) {
          throw notFound('PairSession', pairSession);
        }
        socket.join(uri as string);
        reply(null);
      } catch (error) {
        reply(errorBody(error));
      }
    });
    socket.on('unsubscribe', (uri: unknown) => {
      if (typeof uri === 'string') socket.leave(uri);
    });
    socket.on('api', (call: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      runApiCall(app, context.config.id, authOf(socket).token, call).then(
        (outcome) => {
          if ('error' in outcome) reply(outcome.error);
          else if (outcome.result === undefined) reply(null);
          else reply(null, outcome.result);
        },
        (error: unknown) => reply(errorBody(error)),
      );
    });
  });

  const socketsIn = (uri: string): Socket[] => {
    const ids = api.adapter.rooms.get(uri);
    if (!ids) return [];
    return [...ids].flatMap((id) => {
      const socket = api.sockets.get(id);
      return socket ? [socket] : [];
    });
  };

  /** Sessions and users change under open sockets: revoked sessions and deleted users are cut off, roles refreshed. */
  const followAccessChanges = (event: HubEvent) => {
    if (event.uri === 'homey:manager:sessions' && event.event === 'session.delete') {
      const { id } = event.data as { id: string };
      for (const socket of api.sockets.values()) if (authOf(socket).principal.sessionId === id) socket.disconnect(true);
    }
    if (event.uri === 'homey:manager:users' && (event.event === 'user.update' || event.event === 'user.delete')) {
      const { id } = event.data as { id: string };
      for (const socket of api.sockets.values()) {
        const auth = authOf(socket);
        if (auth.principal.userId !== id) continue;
        const session = context.sessions.get(auth.principal.sessionId);
        try {
          if (!session) throw new HearthError('invalid_token');
          socket.data.auth = { ...auth, principal: principalForSession(context, session) };
        } catch {
          socket.disconnect(true);
        }
      }
    }
  };

  const deliver = (event: HubEvent) => {
    followAccessChanges(event);
    const now = context.clock.now();
    // Sockets grouped by what they may see; one broadcast per group to the sockets' own rooms, so a packet is
    // encoded once per distinct view, not once per socket (without `viewFor` there is one group).
    const audiences = new Map<unknown, string[]>();
    for (const socket of socketsIn(event.uri)) {
      const auth = authOf(socket);
      if (auth.expiresAt <= now) {
        socket.disconnect(true);
        continue;
      }
      if (!hasScope(auth.principal.scopes, event.scope)) continue;
      const data = event.viewFor ? event.viewFor(auth.principal) : event.data;
      if (data === undefined) continue;
      const audience = audiences.get(data);
      if (audience) audience.push(socket.id);
      else audiences.set(data, [socket.id]);
    }
    for (const [data, recipients] of audiences) api.to(recipients).emit(event.uri, event.event, data);
  };
  const unsubscribe = context.events.on(deliver);

  return {
    io,
    async stop() {
      unsubscribe();
      io.disconnectSockets(true);
      for (const nsp of [api]) nsp.disconnectSockets(true);
      // Not `io.close()`: that would close the HTTP server Fastify owns and closes itself.
      io.engine.close();
    },
  };
}
