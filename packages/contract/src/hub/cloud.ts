import { hubManager } from '../operation';
import { declareState } from './options';

const op = hubManager('cloud');

export const cloudManagerOperations = {
  getState: declareState(op),
} as const;
