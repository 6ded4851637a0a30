import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, OpenObject } from './options';

const op = hubManager('energy');

const Power = Type.Object({ W: Type.Number() });

/** Live power of the devices in a zone (and below it). */
export const EnergyLiveReport = Type.Object(
  {
    zoneId: Type.Union([Type.String(), Type.Null()]),
    W: Type.Number({ description: 'Total power of the non-cumulative devices' }),
    items: Type.Array(
      Type.Object(
        {
          type: Type.Literal('device'),
          id: Type.String(),
          name: Type.String(),
          zone: Type.String(),
          approximated: Type.Boolean(),
          values: Power,
        },
        { additionalProperties: true },
      ),
    ),
    cumulative: Type.Object({
      W: Type.Number(),
      kWh: Type.Number(),
      items: Type.Array(
        Type.Object({ id: Type.String(), name: Type.String(), values: Type.Object({ W: Type.Number(), kWh: Type.Number() }) }),
      ),
    }),
    currency: Type.String(),
    kWhCost: Type.Number(),
    costPerHour: Type.Number(),
  },
  { additionalProperties: true },
);

/** An energy report of a day, week, month or year. */
export const EnergyReport = Type.Object(
  {
    period: Type.String({ description: 'day, week, month or year' }),
    date: Type.String({ description: 'The period as asked: 2026-02-14, 2026-W07, 2026-02 or 2026' }),
    start: Type.String(),
    end: Type.String(),
    kWh: Type.Number(),
    cost: Type.Number(),
    currency: Type.String(),
    kWhCost: Type.Number({ description: 'The price per kWh the cost was computed with (average for dynamic prices)' }),
    priceType: Type.String(),
    items: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          zone: Type.String(),
          kWh: Type.Number(),
          source: Type.String(),
          category: Type.String(),
        },
        { additionalProperties: true },
      ),
    ),
    cumulative: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), kWh: Type.Number() })),
    parts: Type.Optional(Type.Array(Type.Object({ date: Type.String(), kWh: Type.Number(), cost: Type.Number() }))),
  },
  { additionalProperties: true },
);

const PriceType = Type.Union([Type.Literal('fixed'), Type.Literal('dynamic')]);
const UserCosts = Type.Object({
  mathExpression: Type.Union([Type.String(), Type.Null()]),
  type: Type.Union([Type.String(), Type.Null()]),
});
const PriceZone = Type.Object({ zoneId: Type.String(), name: Type.String(), currency: Type.String() });

export const energyOperations = {
  getState: declareState(op),
  ...declareOptions(op, {
    kWhCost: {
      value: Type.Number({ minimum: 0, maximum: 100 }),
      read: 'homey.energy.readonly',
      write: 'homey.energy',
      description: 'Cost of one kWh.',
    },
    currency: {
      value: Type.String({ pattern: '^[A-Z]{3}$' }),
      read: 'homey.energy.readonly',
      write: 'homey.energy',
      description: 'ISO 4217 currency code.',
    },
    electricityPriceFixed: {
      value: Type.Number({ minimum: 0, maximum: 100 }),
      read: 'homey.energy.readonly',
      write: 'homey.energy',
      description: 'Fixed price of one kWh of electricity: the same setting as kWhCost.',
    },
    gasPriceFixed: {
      value: Type.Number({ minimum: 0, maximum: 100 }),
      read: 'homey.energy.readonly',
      write: 'homey.energy',
      description: 'Fixed price of one m³ of gas.',
    },
    waterPriceFixed: {
      value: Type.Number({ minimum: 0, maximum: 100 }),
      read: 'homey.energy.readonly',
      write: 'homey.energy',
      description: 'Fixed price of one m³ of water.',
    },
  }),
  getLiveReport: op({
    name: 'getLiveReport',
    method: 'GET',
    path: '/live',
    scope: 'homey.energy.readonly',
    query: Type.Object({ zone: Type.Optional(Type.String({ minLength: 1 })) }),
    response: EnergyLiveReport,
    summary: "Live power from each device's measure_power, or from its energy approximation (usageOn, usageOff, usageConstant).",
  }),
  getReportDay: op({
    name: 'getReportDay',
    method: 'GET',
    path: '/report/day',
    scope: 'homey.energy.readonly',
    query: Type.Object({ date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), cache: Type.Optional(Type.String()) }),
    response: EnergyReport,
    summary: "Energy used on one day (hub local time) per device, from insights: meter_power's rise, else hourly measure_power.",
  }),
  getReportWeek: op({
    name: 'getReportWeek',
    method: 'GET',
    path: '/report/week',
    scope: 'homey.energy.readonly',
    query: Type.Object({ isoWeek: Type.String({ pattern: '^\\d{4}-W\\d{2}$' }), cache: Type.Optional(Type.String()) }),
    response: EnergyReport,
    summary: 'Energy used in one ISO week (`2026-W07`), per device and per day. `cache=false` recomputes a stored report.',
  }),
  getReportMonth: op({
    name: 'getReportMonth',
    method: 'GET',
    path: '/report/month',
    scope: 'homey.energy.readonly',
    query: Type.Object({ yearMonth: Type.String({ pattern: '^\\d{4}-\\d{2}$' }), cache: Type.Optional(Type.String()) }),
    response: EnergyReport,
    summary: 'Energy used in one month (`2026-02`), per device and per day.',
  }),
  getReportYear: op({
    name: 'getReportYear',
    method: 'GET',
    path: '/report/year',
    scope: 'homey.energy.readonly',
    query: Type.Object({ year: Type.String({ pattern: '^\\d{4}$' }), cache: Type.Optional(Type.String()) }),
    response: EnergyReport,
    summary: 'Energy used in one year, per device and per month.',
  }),
  getReportsAvailable: op({
    name: 'getReportsAvailable',
    method: 'GET',
    path: '/reports/available',
    scope: 'homey.energy.readonly',
    response: Type.Object({
      days: Type.Array(Type.String()),
      weeks: Type.Array(Type.String()),
      months: Type.Array(Type.String()),
      years: Type.Array(Type.String()),
    }),
    summary: 'The periods that have energy data (and so a report), oldest first.',
  }),
  deleteReports: op({
    name: 'deleteReports',
    method: 'DELETE',
    path: '/reports',
    scope: 'homey.energy',
    summary: 'Forgets the stored reports; they are computed again from insights when next asked for.',
  }),
  resetReportDayCategories: op({
    name: 'resetReportDayCategories',
    method: 'PUT',
    path: '/report/day/reset/categories',
    scope: 'homey.energy',
    body: Type.Object({
      options: Type.Object({ date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }) }, { additionalProperties: true }),
    }),
    response: EnergyReport,
    summary: "Recomputes one day's report, putting every device back in the category of its class.",
  }),
  fetchDynamicElectricityPrices: op({
    name: 'fetchDynamicElectricityPrices',
    method: 'GET',
    path: '/price/electricity/dynamic',
    scope: 'homey.energy.readonly',
    query: Type.Object({ date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }) }),
    response: Type.Object(
      {
        date: Type.String(),
        zoneId: Type.String(),
        currency: Type.String(),
        userCosts: Type.Union([Type.String(), Type.Null()]),
        prices: Type.Array(
          Type.Object({ start: Type.String(), end: Type.String(), price: Type.Number(), priceWithUserCosts: Type.Number() }),
        ),
      },
      { additionalProperties: true },
    ),
    summary: "The day's hourly electricity prices of the chosen price zone (market price and with the user's costs).",
  }),
  setDynamicElectricityPriceUserCosts: op({
    name: 'setDynamicElectricityPriceUserCosts',
    method: 'PUT',
    path: '/price/electricity/dynamic/user-costs',
    scope: 'homey.energy',
    body: Type.Object({
      mathExpression: Type.String({ minLength: 1, maxLength: 200 }),
      type: Type.Optional(Type.String({ maxLength: 40 })),
    }),
    response: UserCosts,
    summary: 'The costs added to the market price, as an expression of `x` (the market price), e.g. `(x + 0.1) * 1.21`.',
  }),
  getDynamicElectricityPriceUserCosts: op({
    name: 'getDynamicElectricityPriceUserCosts',
    summary: "The user's cost expression added to the market price (`x`), `null` when none is set.",
    method: 'GET',
    path: '/price/electricity/dynamic/user-costs',
    scope: 'homey.energy.readonly',
    response: UserCosts,
  }),
  unsetDynamicElectricityPriceUserCosts: op({
    name: 'unsetDynamicElectricityPriceUserCosts',
    summary: "Removes the user's cost expression: dynamic prices are the market price again.",
    method: 'DELETE',
    path: '/price/electricity/dynamic/user-costs',
    scope: 'homey.energy',
  }),
  setElectricityPriceType: op({
    name: 'setElectricityPriceType',
    method: 'PUT',
    path: '/price/electricity/:type',
    scope: 'homey.energy',
    params: Type.Object({ type: PriceType }),
    response: Type.Object({ type: PriceType }),
    summary: 'Whether reports cost electricity at the fixed price or at the dynamic (hourly market) price.',
  }),
  getElectricityPriceType: op({
    name: 'getElectricityPriceType',
    summary: 'Whether electricity is priced fixed (per kWh) or dynamic (per hour).',
    method: 'GET',
    path: '/price/electricity/type',
    scope: 'homey.energy.readonly',
    response: Type.Object({ type: PriceType }),
  }),
  getDynamicPricesElectricityZones: op({
    name: 'getDynamicPricesElectricityZones',
    method: 'GET',
    path: '/price/electricity/dynamic/zones',
    scope: 'homey.energy.readonly',
    response: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), currency: Type.String() })),
    summary: 'The electricity market price zones the hub knows prices of.',
  }),
  getDynamicPricesElectricityZone: op({
    name: 'getDynamicPricesElectricityZone',
    summary: 'The price zone dynamic electricity prices come from, with its name and currency.',
    method: 'GET',
    path: '/price/electricity/dynamic/zone',
    scope: 'homey.energy.readonly',
    response: PriceZone,
  }),
  setDynamicPricesElectricityZone: op({
    name: 'setDynamicPricesElectricityZone',
    summary: 'Chooses the price zone of dynamic electricity prices; answers the zone.',
    method: 'PUT',
    path: '/price/electricity/dynamic/zone',
    scope: 'homey.energy',
    body: Type.Object({
      options: Type.Object({ zoneId: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: true }),
    }),
    response: PriceZone,
  }),
  enableDummyEnergyReports: op({
    name: 'enableDummyEnergyReports',
    method: 'POST',
    path: '/reports/dummy/enable',
    scope: 'homey.energy',
    private: true,
    query: Type.Object({
      fromDate: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
      toDate: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
      randomness: Type.Optional(Type.String({ pattern: '^(0(\\.\\d+)?|1(\\.0+)?)$' })),
      numTopConsumers: Type.Optional(Type.String({ pattern: '^\\d{1,2}$' })),
    }),
    response: OpenObject,
    summary: 'Demonstration data: reports of the days from fromDate to toDate get made-up consumers.',
  }),
  disableDummyEnergyReports: op({
    name: 'disableDummyEnergyReports',
    summary: 'Stops the sample energy reports and shows the recorded ones again.',
    method: 'POST',
    path: '/reports/dummy/disable',
    scope: 'homey.energy',
    private: true,
    response: OpenObject,
  }),
  getCurrency: op({
    name: 'getCurrency',
    summary: 'The currency and fixed price per kWh energy costs are shown in.',
    method: 'GET',
    path: '/currency',
    scope: 'homey.energy.readonly',
    response: Type.Object({ currency: Type.String(), kWhCost: Type.Number() }),
  }),
} as const;

/** Wire events of the energy manager. */
export const energyEvents = managerEvents('energy', { events: optionEvents });
