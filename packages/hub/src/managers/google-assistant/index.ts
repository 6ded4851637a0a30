import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { isoNow } from '../../core/clock';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';

const behaviours: Record<string, OptionBehaviour> = { enabled: { default: false }, pinCode: { default: null } };

interface SyncState {
  requestedAt: string;
  syncCount: number;
}

/** The Google Assistant link: whether it is on, the PIN for security devices, and device-list sync requests. */
export const googleAssistantManager: HubManager = {
  name: 'google-assistant',
  create: (context) => ({
    implementations: implement<(typeof hubOperations)['google-assistant'], HubPrincipal>(hubOperations['google-assistant'], {
      getState: () => ({
        enabled: readOption(context, 'google-assistant', 'enabled', false),
        hasPinCode: readOption(context, 'google-assistant', 'pinCode', null) !== null,
        lastSync: context.settings.get<SyncState | null>('google-assistant.sync', null),
      }),
      ...optionHandlers(context, 'google-assistant', hubOperations['google-assistant'], behaviours),
      sync: () => {
        if (!optionValues(context, 'google-assistant', behaviours).enabled)
          throw new HearthError('conflict', 'Google Assistant is not enabled: set the enabled option first');
        const previous = context.settings.get<SyncState | null>('google-assistant.sync', null);
        const state = { requestedAt: isoNow(context.clock), syncCount: (previous?.syncCount ?? 0) + 1 };
        context.settings.set('google-assistant.sync', state);
        context.events.manager('google-assistant', 'sync', state, 'homey.system');
        return state;
      },
    }),
  }),
};
