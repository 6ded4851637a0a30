import { HearthError, hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type OptionBehaviour, optionHandlers, optionValues } from '../options';

/** The screensavers built into the hub; apps add their own later. */
export const screensavers = [
  { id: 'off', name: 'Off', ownerUri: 'homey:manager:ledring' },
  { id: 'default', name: 'Breathing', ownerUri: 'homey:manager:ledring' },
  { id: 'clock', name: 'Clock', ownerUri: 'homey:manager:ledring' },
  { id: 'rainbow', name: 'Rainbow', ownerUri: 'homey:manager:ledring' },
];

export const animations = [
  { id: 'pulse', name: 'Pulse', duration: 2000 },
  { id: 'spin', name: 'Spin', duration: 3000 },
  { id: 'flash', name: 'Flash', duration: 1000 },
];

const behaviours: Record<string, OptionBehaviour> = {
  screensaver: {
    default: 'default',
    check: (value) => {
      if (!screensavers.some((s) => s.id === value))
        throw new HearthError('invalid_parameter', `Invalid Parameter: value. Unknown screensaver "${String(value)}"`);
    },
  },
  brightness: { default: 80 },
};

/** The LED ring: its screensaver, brightness and one-off animations. */
export const ledringManager: HubManager = {
  name: 'ledring',
  create: (context) => ({
    implementations: implement<typeof hubOperations.ledring, HubPrincipal>(hubOperations.ledring, {
      getState: () => ({
        ...optionValues(context, 'ledring', behaviours),
        animation: context.settings.get('ledring.animation', null),
      }),
      ...optionHandlers(context, 'ledring', hubOperations.ledring, behaviours),
      getScreensavers: () => screensavers,
      getAnimations: () => animations,
      playAnimation: ({ params }) => {
        const animation = animations.find((a) => a.id === params.id);
        if (!animation) throw notFound('Animation', params.id);
        const now = context.clock.now();
        const playing = {
          id: animation.id,
          startedAt: new Date(now).toISOString(),
          endsAt: new Date(now + animation.duration).toISOString(),
        };
        context.settings.set('ledring.animation', playing);
        context.events.manager('ledring', 'animation', playing, 'homey.system.readonly');
        return playing;
      },
    }),
  }),
};
