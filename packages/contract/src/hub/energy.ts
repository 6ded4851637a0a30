import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareOptions, declareState } from './options';

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
    response: Type.Object(
      {
        date: Type.String(),
        start: Type.String(),
        end: Type.String(),
        kWh: Type.Number(),
        cost: Type.Number(),
        currency: Type.String(),
        kWhCost: Type.Number(),
        items: Type.Array(
          Type.Object({ id: Type.String(), name: Type.String(), zone: Type.String(), kWh: Type.Number(), source: Type.String() }),
        ),
        cumulative: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), kWh: Type.Number() })),
      },
      { additionalProperties: true },
    ),
    summary: "Energy used on one day (hub local time) per device, from insights: meter_power's rise, else hourly measure_power.",
  }),
  getCurrency: op({
    name: 'getCurrency',
    method: 'GET',
    path: '/currency',
    scope: 'homey.energy.readonly',
    response: Type.Object({ currency: Type.String(), kWhCost: Type.Number() }),
  }),
} as const;
