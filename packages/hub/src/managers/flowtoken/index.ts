import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { tokenToWire } from '../flow/registry';

/** Flow tokens: every value flows can use, from the hub's managers now and from devices and apps later. */
export const flowtokenManager: HubManager = {
  name: 'flowtoken',
  create: (_context, services) => {
    const registry = services.flowCards;
    const find = (fullId: string) => {
      const token = registry.token(fullId);
      if (!token) throw notFound('Flow token', fullId);
      return token;
    };
    return {
      implementations: implement<typeof hubOperations.flowtoken, HubPrincipal>(hubOperations.flowtoken, {
        getState: () => ({ tokens: registry.tokens().length }),
        getFlowTokens: () => Object.fromEntries(registry.tokens().map((t) => [`${t.uri}|${t.id}`, tokenToWire(t)])),
        getFlowToken: ({ params }) => tokenToWire(find(params.id)),
        getFlowTokenByUri: ({ params }) => tokenToWire(find(`${params.uri}|${params.id}`)),
        getFlowTokenValue: ({ params }) => find(params.id).value,
      }),
    };
  },
};
