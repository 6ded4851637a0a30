import { Type } from 'typebox';
import { managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, IdParams } from './options';

const op = hubManager('experiments');

export const Experiment = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  enabled: Type.Boolean(),
});

export const experimentsOperations = {
  getState: declareState(op),
  getExperiments: op({
    name: 'getExperiments',
    summary: 'Every experimental feature of the hub, with whether it is on.',
    method: 'GET',
    path: '/experiment',
    scope: 'homey.system',
    response: Type.Record(Type.String(), Experiment),
  }),
  enableExperiment: op({
    name: 'enableExperiment',
    summary: 'Turns an experimental feature on; answers the experiment.',
    method: 'PUT',
    path: '/experiment/:id/enable',
    scope: 'homey.system',
    params: IdParams,
    response: Experiment,
  }),
  disableExperiment: op({
    name: 'disableExperiment',
    summary: 'Turns an experimental feature off; answers the experiment.',
    method: 'PUT',
    path: '/experiment/:id/disable',
    scope: 'homey.system',
    params: IdParams,
    response: Experiment,
  }),
} as const;

/** Wire events of the experiments manager. */
export const experimentsEvents = managerEvents('experiments', { events: { 'experiment.update': Experiment } });
