import { hubManager } from '../operation';
import { declareRadioCommand, declareState } from './options';

/** Bluetooth Low Energy: discovery and connections. */
const op = hubManager('ble');

export const bleOperations = {
  getState: declareState(op),
  runCommand: declareRadioCommand(op, 'the Bluetooth radio'),
} as const;
