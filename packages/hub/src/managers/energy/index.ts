import { hubOperations, invalidParameter } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type OptionBehaviour, optionHandlers, optionKey, optionValues, readOption } from '../options';
import { ElectricityPrices, PRICE_ZONES } from './prices';
import { EnergyReports, energyReportMigrations } from './reports';
import { ENERGY_DEFAULTS } from './service';

const behaviours = (write: (name: string, value: unknown) => void): Record<string, OptionBehaviour> => ({
  // kWhCost is the older name of electricityPriceFixed: one price, kept equal under both names.
  kWhCost: { default: ENERGY_DEFAULTS.kWhCost, changed: (value) => write('electricityPriceFixed', value) },
  electricityPriceFixed: { default: ENERGY_DEFAULTS.kWhCost, changed: (value) => write('kWhCost', value) },
  gasPriceFixed: { default: 1.2 },
  waterPriceFixed: { default: 1.5 },
  currency: {
    default: ENERGY_DEFAULTS.currency,
    check: (value) => {
      if (typeof value !== 'string' || !Intl.supportedValuesOf('currency').includes(value)) {
        throw invalidParameter('value', `Unknown ISO 4217 currency ${String(value)}`);
      }
    },
  },
});

/** Energy: live power per zone, reports of days to years from insights, fixed and dynamic electricity prices. */
export const energyManager: HubManager = {
  name: 'energy',
  migrations: energyReportMigrations,
  create: (context, services) => {
    const { energy, insights } = services;
    const prices = new ElectricityPrices(context);
    const reports = new EnergyReports(context, energy, insights, prices);
    const options = behaviours((name, value) => context.settings.set(optionKey('energy', name), value));
    const fresh = (cache: string | undefined) => cache === 'false' || cache === '0';
    return {
      implementations: implement<typeof hubOperations.energy, HubPrincipal>(hubOperations.energy, {
        getState: () => ({
          ...optionValues(context, 'energy', options),
          W: energy.live().W,
          priceType: prices.type(),
          priceZone: prices.zone().zoneId,
        }),
        ...optionHandlers(context, 'energy', hubOperations.energy, options),
        getLiveReport: ({ query }) => energy.live(query.zone),
        getReportDay: ({ query }) => reports.day(query.date, fresh(query.cache)),
        getReportWeek: ({ query }) => reports.period('week', query.isoWeek, 'isoWeek', fresh(query.cache)),
        getReportMonth: ({ query }) => reports.period('month', query.yearMonth, 'yearMonth', fresh(query.cache)),
        getReportYear: ({ query }) => reports.period('year', query.year, 'year', fresh(query.cache)),
        getReportsAvailable: () => reports.available(),
        deleteReports: () => {
          reports.deleteAll();
          return undefined;
        },
        resetReportDayCategories: ({ body }) => reports.day(body.options.date, true, 'options.date'),
        fetchDynamicElectricityPrices: ({ query }) => prices.day(query.date),
        setDynamicElectricityPriceUserCosts: ({ body }) => prices.setUserCosts(body.mathExpression, body.type ?? null),
        getDynamicElectricityPriceUserCosts: () => prices.userCosts(),
        unsetDynamicElectricityPriceUserCosts: () => {
          prices.unsetUserCosts();
          return undefined;
        },
        setElectricityPriceType: ({ params }) => prices.setType(params.type),
        getElectricityPriceType: () => ({ type: prices.type() }),
        getDynamicPricesElectricityZones: () => PRICE_ZONES.map(({ id, name, currency }) => ({ id, name, currency })),
        getDynamicPricesElectricityZone: () => prices.zone(),
        setDynamicPricesElectricityZone: ({ body }) => prices.setZone(body.options.zoneId),
        enableDummyEnergyReports: ({ query }) => reports.enableDummy(query),
        disableDummyEnergyReports: () => reports.disableDummy(),
        getCurrency: () => ({
          currency: readOption(context, 'energy', 'currency', ENERGY_DEFAULTS.currency),
          kWhCost: readOption(context, 'energy', 'kWhCost', ENERGY_DEFAULTS.kWhCost),
        }),
      }),
    };
  },
};
