import { hubManager } from '../operation';
import { declareRadioCommand, declareState } from './options';

/** Zigbee: the simulated coordinator. */
const op = hubManager('zigbee');

export const zigbeeOperations = {
  getState: declareState(op),
  runCommand: declareRadioCommand(op),
} as const;
