import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { isoNow } from '../../core/clock';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';

const behaviours: Record<string, OptionBehaviour> = { volume: { default: 50 } };

/** The speaker: its volume, and the hint sound that lets someone hear a volume level. */
export const audioManager: HubManager = {
  name: 'audio',
  create: (context) => ({
    implementations: implement<typeof hubOperations.audio, HubPrincipal>(hubOperations.audio, {
      getState: () => ({
        ...optionValues(context, 'audio', behaviours),
        lastVolumeHint: context.settings.get('audio.lastVolumeHint', null),
      }),
      ...optionHandlers(context, 'audio', hubOperations.audio, behaviours),
      playVolumeHint: ({ body }) => {
        const hint = {
          volume: body.volume ?? readOption(context, 'audio', 'volume', 50),
          playedAt: isoNow(context.clock),
        };
        context.settings.set('audio.lastVolumeHint', hint);
        context.events.manager('audio', 'volumehint', hint, 'homey.system.readonly');
        return hint;
      },
    }),
  }),
};
