import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type OptionBehaviour, optionHandlers, optionValues } from '../options';

export const geolocationBehaviours: Record<string, OptionBehaviour> = {
  mode: { default: 'auto' },
  location: { default: null },
  address: { default: null },
};

/** Where the home is: the location weather, sun and presence features use. */
export const geolocationManager: HubManager = {
  name: 'geolocation',
  create: (context) => ({
    implementations: implement<typeof hubOperations.geolocation, HubPrincipal>(hubOperations.geolocation, {
      getState: () => optionValues(context, 'geolocation', geolocationBehaviours),
      ...optionHandlers(context, 'geolocation', hubOperations.geolocation, geolocationBehaviours),
    }),
  }),
};
