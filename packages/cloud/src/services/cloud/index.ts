import { cloudOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import type { CloudService } from '../service';
import { signUpImplementations } from './account/signup';
import { accountPagesDirectory, registerAccountPages } from './account-pages';
import { avatarImplementations, registerAvatarRoutes } from './avatar';
import { bridgeImplementations } from './bridges';
import { type DelegationKeys, delegationImplementations, loadDelegationKeys } from './delegation';
import { healthImplementations } from './health';
import { householdImplementations } from './household/household';
import { hubImplementations } from './hubs';
import { createOAuth, type OAuth } from './oauth';
import { registerFavicon } from './pages';
import { ensurePageClients } from './seed';
import { registerSignInPages } from './signin';
import { statsImplementations } from './stats';
import { userImplementations } from './users';

const tokenOps = pick(cloudOperations.cloud, ['getAccessToken']);

/** Accounts, OAuth2, hubs, bridges, delegation and statistics, under `/cloud`. */
export const cloudAccountService: CloudService = {
  name: 'cloud',
  create: (context) => {
    const state: { oauth: OAuth; keys: DelegationKeys | null } = { oauth: createOAuth(context), keys: null };
    return {
      implementations: () => {
        const keys = () => {
          if (!state.keys) throw new Error('Delegation keys are not loaded yet');
          return state.keys;
        };
        return [
          ...healthImplementations(context),
          ...implement<typeof tokenOps, CloudPrincipal>(tokenOps, {
            getAccessToken: ({ request, body, reply }) => {
              reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
              return state.oauth.token(request, body as Record<string, unknown>);
            },
          }),
          ...delegationImplementations(context, keys),
          ...userImplementations(context, state.oauth),
          ...signUpImplementations(context, state.oauth),
          ...state.oauth.twoFactor.implementations(state.oauth),
          ...state.oauth.passkeys.implementations(state.oauth.signIn, state.oauth.twoFactor),
          ...householdImplementations(context),
          ...avatarImplementations(context),
          ...hubImplementations(context),
          ...bridgeImplementations(context),
          ...statsImplementations(context),
        ];
      },
      routes: async (app) => {
        await registerSignInPages(app, context, state.oauth);
        await registerAvatarRoutes(app, context);
        registerAccountPages(app, accountPagesDirectory());
        registerFavicon(app);
      },
      start: async () => {
        await ensurePageClients(context.database.db, context.config.publicUrl);
        state.keys = await loadDelegationKeys(context);
      },
    };
  },
};
