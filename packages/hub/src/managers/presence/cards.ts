import type { DomainBus } from '../../core/bus';
import type { UserStore } from '../../platform/identity/users';
import { chosenId, type FlowCardDefinition, type FlowRegistry, registerCards, suggest } from '../flow/registry';

const PRESENCE_URI = 'homey:manager:presence';

/**
 * Presence cards: someone comes home or leaves, the first came home or the last left, someone wakes up or goes to
 * sleep; conditions on who is home and asleep. Triggers fire from the domain bus (a forced trigger fires them too).
 */
export function servePresenceCards(registry: FlowRegistry, bus: DomainBus, users: UserStore): () => void {
  const userArg = { name: 'user', type: 'autocomplete', title: 'Person' };
  const autocomplete = ({ query }: { query: string }) => suggest(users.list(), query, (u) => ({ id: u.id, name: u.name }));
  const argProblem = (args: Record<string, unknown>) => {
    const id = chosenId(args.user);
    return id && !users.get(id) ? 'the person it names is no longer a member' : null;
  };
  const forUser = { args: [userArg], autocomplete, argProblem };
  const matchesUser = ({ args, state }: { args: Record<string, unknown>; state: Record<string, unknown> }) =>
    chosenId(args.user) === state.userId;
  const tokens = [{ id: 'name', title: 'Name', type: 'string' as const }];
  const trigger = (id: string, title: string, perUser: boolean): FlowCardDefinition => ({
    type: 'trigger',
    uri: PRESENCE_URI,
    id,
    title,
    tokens,
    ...(perUser ? { ...forUser, run: matchesUser } : {}),
  });
  const cards: FlowCardDefinition[] = [
    trigger('user_enters', 'Someone comes home', true),
    trigger('user_leaves', 'Someone leaves', true),
    trigger('first_user_entered', 'The first person came home', false),
    trigger('last_user_left', 'The last person left', false),
    trigger('user_wakes_up', 'Someone wakes up', true),
    trigger('user_goes_to_sleep', 'Someone goes to sleep', true),
    {
      type: 'condition',
      uri: PRESENCE_URI,
      id: 'user_home',
      title: 'Someone is home',
      ...forUser,
      run: ({ args }) => users.get(chosenId(args.user) ?? '')?.present === true,
    },
    {
      type: 'condition',
      uri: PRESENCE_URI,
      id: 'someone_home',
      title: 'Anybody is home',
      run: () => users.list().some((u) => u.present),
    },
    {
      type: 'condition',
      uri: PRESENCE_URI,
      id: 'user_asleep',
      title: 'Someone is asleep',
      ...forUser,
      run: ({ args }) => users.get(chosenId(args.user) ?? '')?.asleep === true,
    },
  ];
  const fire = (id: string, userId: string, source: Parameters<FlowRegistry['fire']>[0]['source']) =>
    registry.fire({ uri: PRESENCE_URI, id, tokens: { name: users.get(userId)?.name ?? '' }, state: { userId }, source });
  const stops = [
    registerCards(registry, cards),
    bus.on('presence.changed', 'presence-cards', (change) => {
      fire(change.present ? 'user_enters' : 'user_leaves', change.userId, change.source);
      if (change.present === change.previous) return;
      const home = users.list().filter((u) => u.present).length;
      if (change.present && home === 1) fire('first_user_entered', change.userId, change.source);
      if (!change.present && home === 0) fire('last_user_left', change.userId, change.source);
    }),
    bus.on('user.asleep', 'presence-cards', (change) =>
      fire(change.asleep ? 'user_goes_to_sleep' : 'user_wakes_up', change.userId, change.source),
    ),
    bus.on('user.removed', 'presence-cards', () => registry.changed()),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
