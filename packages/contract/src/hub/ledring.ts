import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState } from './options';

const op = hubManager('ledring');

export const Screensaver = Type.Object({ id: Type.String(), name: Type.String(), ownerUri: Type.String() });
export const Animation = Type.Object({ id: Type.String(), name: Type.String(), duration: Type.Number() });

export const ledringOptions = {
  screensaver: { value: Type.String({ minLength: 1 }), read: 'homey.system.readonly', write: 'homey.system' },
  brightness: {
    value: Type.Integer({ minimum: 0, maximum: 100, description: 'LED ring brightness in percent' }),
    read: 'homey.system.readonly',
    write: 'homey.system',
  },
} as const;

export const ledringOperations = {
  getState: declareState(op),
  ...declareOptions(op, ledringOptions),
  getScreensavers: op({
    name: 'getScreensavers',
    method: 'GET',
    path: '/screensaver',
    scope: null,
    response: Type.Array(Screensaver),
    summary: 'The screensavers the LED ring can show.',
    description:
      "Any session may read it: the list is the hub's built-in screensavers, the same on every hub, with nothing of the household in it. Choosing one (the `screensaver` option) needs `homey.system`.",
  }),
  getAnimations: op({
    name: 'getAnimations',
    summary: 'The animations the LED ring can play, with their duration.',
    method: 'GET',
    path: '/animation',
    scope: 'homey.system.readonly',
    response: Type.Array(Animation),
  }),
  playAnimation: op({
    name: 'playAnimation',
    summary: 'Plays an animation on the LED ring; answers when it started and ends.',
    method: 'POST',
    path: '/animation/:id/play',
    scope: 'homey.system',
    params: Type.Object({ id: Type.String() }),
    response: Type.Object({ id: Type.String(), startedAt: Type.String(), endsAt: Type.String() }),
  }),
} as const;

/** Wire events of the LED ring manager. */
export const ledringEvents = managerEvents('ledring', {
  events: { ...optionEvents, animation: ledringOperations.playAnimation.response },
});
