import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState, OpenObject } from './options';

/** 433 MHz, 868 MHz and infrared: record, replay, emulate, configuration, Pronto hex. */
const op = hubManager('rf');

const Pulses = Type.Array(Type.Integer({ minimum: 1, maximum: 100_000 }), { minItems: 1, maxItems: 4096 });
const Frequency = Type.Enum(['433', '868', 'ir']);
const Transmission = Type.Object(
  { frequency: Type.String(), pulses: Type.Integer(), durationMs: Type.Number() },
  { additionalProperties: true },
);

export const rfOperations = {
  getState: declareState(op),
  record: op({
    name: 'record',
    method: 'POST',
    path: '/record',
    scope: 'homey.system',
    body: Type.Object({
      frequency: Type.Optional(Frequency),
      timeout: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
    }),
    response: Type.Object({ frequency: Type.String(), data: Type.Array(Type.Integer()) }),
    summary: 'Records a signal from a remote (simulated: a remote is always pressed in time).',
  }),
  replay: op({
    name: 'replay',
    summary: 'Sends a signal as pulse lengths on 433 MHz, 868 MHz or infrared (simulated); answers the transmission.',
    method: 'POST',
    path: '/replay',
    scope: 'homey.system',
    body: Type.Object({ frequency: Frequency, data: Pulses }),
    response: Transmission,
  }),
  emulate: op({
    name: 'emulate',
    summary: "Sends pulse lengths on the radio of the path's frequency (simulated); answers the transmission.",
    method: 'POST',
    path: '/:frequency/emulate',
    scope: 'homey.system',
    params: Type.Object({ frequency: Frequency }),
    bodyRoot: 'data',
    body: Pulses,
    response: Transmission,
  }),
  set433MHzConfig: op({
    name: 'set433MHzConfig',
    summary: "Changes the 433 MHz radio's modulation, carrier, bandwidth, baud rate or power; answers its configuration.",
    method: 'POST',
    path: '/mhz433/config',
    scope: 'homey.system',
    body: Type.Object({
      modulation: Type.Optional(Type.Enum(['ASK', 'OOK', 'FSK', 'GFSK'])),
      carrier: Type.Optional(Type.Number({ minimum: 432_000_000, maximum: 435_000_000 })),
      deviation: Type.Optional(Type.Number({ minimum: 0, maximum: 380_000 })),
      channelSpacing: Type.Optional(Type.Number({ minimum: 0, maximum: 400_000 })),
      filterBandwidth: Type.Optional(Type.Number({ minimum: 50_000, maximum: 800_000 })),
      baudrate: Type.Optional(Type.Number({ minimum: 100, maximum: 100_000 })),
      power: Type.Optional(Type.Number({ minimum: -30, maximum: 10 })),
    }),
    response: OpenObject,
  }),
  txInfraredProntohex: op({
    name: 'txInfraredProntohex',
    summary: 'Sends a learned Pronto hex code over infrared (simulated), repeated if asked; answers the transmission.',
    method: 'POST',
    path: '/ir/prontohex',
    scope: 'homey.system',
    body: Type.Object({
      payload: Type.String({ minLength: 4, maxLength: 8192 }),
      repetitions: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
    }),
    response: Transmission,
  }),
} as const;
