import { hubOperations, invalidParameter } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { hubRuntime } from '../../runtime';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';
import { ENERGY_DEFAULTS } from './service';

const behaviours: Record<string, OptionBehaviour> = {
  kWhCost: { default: ENERGY_DEFAULTS.kWhCost },
  currency: {
    default: ENERGY_DEFAULTS.currency,
    check: (value) => {
      if (typeof value !== 'string' || !Intl.supportedValuesOf('currency').includes(value)) {
        throw invalidParameter('value', `Unknown ISO 4217 currency ${String(value)}`);
      }
    },
  },
};

/** Energy: live power per zone, from measured power or the energy approximation; price options. */
export const energyManager: HubManager = {
  name: 'energy',
  implementations: (context) => {
    const { energy } = hubRuntime(context);
    return implement<typeof hubOperations.energy, HubPrincipal>(hubOperations.energy, {
      getState: () => ({ ...optionValues(context, 'energy', behaviours), W: energy.live().W }),
      ...optionHandlers(context, 'energy', hubOperations.energy, behaviours),
      getLiveReport: ({ query }) => energy.live(query.zone),
      getReportDay: ({ query }) => energy.day(query.date),
      getCurrency: () => ({
        currency: readOption(context, 'energy', 'currency', ENERGY_DEFAULTS.currency),
        kWhCost: readOption(context, 'energy', 'kWhCost', ENERGY_DEFAULTS.kWhCost),
      }),
    });
  },
};
