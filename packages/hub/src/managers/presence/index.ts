import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { servePresenceCards } from './cards';

type Flag = 'present' | 'asleep';

function writeFlag(context: HubContext, userId: string, flag: Flag, value: boolean) {
  return transact(context.db, () =>
    flag === 'present' ? context.users.setPresent(userId, value) : context.users.setAsleep(userId, value),
  );
}

/**
 * Sets a user's presence flag and answers its new value. The user store publishes `user.update`; when the flag
 * changed (or `forceFlowTrigger` asks for it) `presence.changed` or `user.asleep` goes on the domain bus, which
 * flows that start on someone coming home or going to sleep listen to, and which clients see as `presence.update`
 * `{id, present, asleep}`. Without a value the flag is left as it is (nothing is written), but a forced trigger still fires.
 */
function setFlag(
  context: HubContext,
  principal: HubPrincipal,
  userId: string,
  flag: Flag,
  value: boolean | undefined,
  force = false,
): boolean {
  const user = context.users.get(userId);
  if (!user) throw notFound('User', userId);
  const changed = value !== undefined && user[flag] !== value;
  const updated = value === undefined ? user : writeFlag(context, userId, flag, value);
  if (updated && (changed || force)) {
    const source = { kind: 'api', sessionId: principal.sessionId, userId: principal.userId } as const;
    const forced = force && !changed;
    if (flag === 'present')
      context.bus.emit('presence.changed', { userId, present: updated.present, previous: user.present, forced, source });
    else context.bus.emit('user.asleep', { userId, asleep: updated.asleep, previous: user.asleep, forced, source });
  }
  return value ?? user[flag];
}

function getFlag(context: HubContext, userId: string, flag: Flag): boolean {
  const user = context.users.get(userId);
  if (!user) throw notFound('User', userId);
  return user[flag];
}

/** Who is home and who is asleep: the users' presence flags. */
export const presenceManager: HubManager = {
  name: 'presence',
  create: (context, services) => {
    let stopCards: (() => void) | undefined;
    return {
      implementations: implement<typeof hubOperations.presence, HubPrincipal>(hubOperations.presence, {
        getState: () => {
          const users = context.users.list();
          return {
            present: users.filter((u) => u.present).length,
            asleep: users.filter((u) => u.asleep).length,
            users: users.length,
          };
        },
        setPresentMe: ({ principal, body }) =>
          setFlag(context, principal, principal.userId, 'present', body.value, body.opts?.forceFlowTrigger),
        setPresent: ({ params, body, principal }) => setFlag(context, principal, params.id, 'present', body.value),
        getPresent: ({ params }) => getFlag(context, params.id, 'present'),
        setAsleepMe: ({ principal, body }) =>
          setFlag(context, principal, principal.userId, 'asleep', body.value, body.opts?.forceFlowTrigger),
        setAsleep: ({ params, body, principal }) => setFlag(context, principal, params.id, 'asleep', body.value),
        getAsleep: ({ params }) => getFlag(context, params.id, 'asleep'),
      }),
      start: () => {
        stopCards = servePresenceCards(services.flowCards, context.bus, context.users);
      },
      stop: () => stopCards?.(),
    };
  },
};
