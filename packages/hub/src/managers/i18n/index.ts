import { hubOperations, invalidParameter, isTimezone } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { type OptionBehaviour, optionHandlers, optionValues } from '../options';
import { hostTimezone } from './timezone';

const behaviours = (context: HubContext): Record<string, OptionBehaviour> => ({
  language: { default: context.config.language },
  timezone: {
    default: hostTimezone(),
    check: (value) => {
      if (!isTimezone(value)) throw invalidParameter('value', `${String(value)} is not an IANA time zone`);
    },
  },
  units: { default: 'metric' },
});

/** The hub's language, time zone and unit system, used by every part that speaks to people or keeps local time. */
export const i18nManager: HubManager = {
  name: 'i18n',
  create: (context) => ({
    implementations: implement<typeof hubOperations.i18n, HubPrincipal>(hubOperations.i18n, {
      getState: () => optionValues(context, 'i18n', behaviours(context)),
      ...optionHandlers(context, 'i18n', hubOperations.i18n, behaviours(context)),
    }),
  }),
};
