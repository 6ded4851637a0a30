import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';

export const geolocationBehaviours: Record<string, OptionBehaviour> = {
  mode: { default: 'auto' },
  location: { default: null },
  address: { default: null },
};

/** Where the home is (the owner set it), or `null` while unknown: sunrise and sunset need it. */
export function homeLocation(context: HubContext): { latitude: number; longitude: number } | null {
  return readOption<{ latitude: number; longitude: number } | null>(context, 'geolocation', 'location', null);
}

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
