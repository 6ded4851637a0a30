import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { SetupFollower } from './follower';

/**
 * The hub's side of a cloud setup session (`/setup`): told the session and its hub token (by the app, which opened
 * it), the hub joins and follows it until the setup is done, across the restart a restored backup needs.
 */
export const setupManager: HubManager = {
  name: 'setup',
  create: (context) => {
    const follower = new SetupFollower(context);
    return {
      implementations: implement<typeof hubOperations.setup, HubPrincipal>(hubOperations.setup, {
        getState: () => follower.state,
        joinSession: ({ body }) => {
          if (!context.config.cloudUrl) throw new HearthError('unavailable', 'This hub has no cloud to be set up through');
          return follower.join(body.sessionId, body.token);
        },
      }),
      start: () => follower.start(),
      stop: () => follower.stop(),
    };
  },
};
