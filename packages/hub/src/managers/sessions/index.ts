import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import type { HubSession } from '../../platform/identity/sessions';
import { isHouseholdAdmin } from '../../platform/roles';

/** Owners and managers see every session; everyone else only their own. Others' sessions answer 404. */
function visibleSession(context: HubContext, principal: HubPrincipal, id: string, scope: string): HubSession {
  const session = context.sessions.get(id);
  const live = session && (session.expiresAt === null || Date.parse(session.expiresAt) > context.clock.now());
  if (!session || !live || (session.userId !== principal.userId && !isHouseholdAdmin(principal, scope))) {
    throw notFound('Session', id);
  }
  return session;
}

export const sessionsManager: HubManager = {
  name: 'sessions',
  create: (context) => ({
    implementations: implement<typeof hubOperations.sessions, HubPrincipal>(hubOperations.sessions, {
      getState: () => ({ sessionCount: context.sessions.count() }),
      getSessionMe: ({ principal }) => {
        const session = context.sessions.get(principal.sessionId);
        if (!session) throw notFound('Session', principal.sessionId);
        return context.sessions.view(session);
      },
      getSessions: ({ principal }) => {
        const all = isHouseholdAdmin(principal, 'homey.user.readonly');
        const sessions = context.sessions.list(all ? undefined : principal.userId);
        return Object.fromEntries(sessions.map((session) => [session.id, context.sessions.view(session)]));
      },
      getSession: ({ principal, params }) =>
        context.sessions.view(visibleSession(context, principal, params.id, 'homey.user.readonly')),
      deleteSession: ({ principal, params }) => {
        const session = visibleSession(context, principal, params.id, 'homey.user');
        const owner = context.users.owner();
        if (session.userId === owner?.id && principal.userId !== owner.id) throw notFound('Session', params.id);
        context.sessions.delete(session.id);
      },
    }),
  }),
};
