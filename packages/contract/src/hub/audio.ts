import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState } from './options';

const op = hubManager('audio');

export const audioOptions = {
  volume: {
    value: Type.Integer({ minimum: 0, maximum: 100, description: 'Speaker volume in percent' }),
    read: 'homey.system.readonly',
    write: 'homey.system',
  },
} as const;

export const audioOperations = {
  getState: declareState(op),
  ...declareOptions(op, audioOptions),
  playVolumeHint: op({
    name: 'playVolumeHint',
    method: 'POST',
    path: '/volume-hint',
    scope: 'homey.system',
    body: Type.Object({ volume: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })) }),
    response: Type.Object({ volume: Type.Integer(), playedAt: Type.String() }),
    summary: 'Plays the hint sound at the given (or current) volume so the listener hears the level.',
  }),
} as const;

/** Wire events of the audio manager. */
export const audioEvents = managerEvents('audio', {
  events: { ...optionEvents, volumehint: audioOperations.playVolumeHint.response },
});
