import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareOptions, declareRadioCommand, declareState } from './options';

/** Z-Wave: the simulated controller, its region and log. */
const op = hubManager('zwave');

export const ZWAVE_REGIONS = ['EU', 'US', 'ANZ', 'HK', 'IN', 'IL', 'RU', 'CN', 'JP', 'KR'] as const;

export const zwaveOperations = {
  getState: declareState(op),
  ...declareOptions(op, {
    regionOverride: {
      value: Type.Union([Type.Enum([...ZWAVE_REGIONS]), Type.Null()]),
      read: 'homey.system.readonly',
      write: 'homey.system',
    },
  }),
  runCommand: declareRadioCommand(op),
  getLog: op({
    name: 'getLog',
    method: 'GET',
    path: '/log',
    scope: 'homey.system',
    response: Type.Object({
      enabled: Type.Boolean(),
      entries: Type.Array(Type.Object({ t: Type.String(), line: Type.String() })),
    }),
  }),
  setLogEnabled: op({
    name: 'setLogEnabled',
    method: 'PUT',
    path: '/log',
    scope: 'homey.system',
    body: Type.Object({ enabled: Type.Boolean() }),
    response: Type.Object({ enabled: Type.Boolean() }),
  }),
} as const;
