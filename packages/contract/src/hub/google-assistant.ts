import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, Nullable } from './options';

const op = hubManager('google-assistant');

export const googleAssistantOptions = {
  pinCode: {
    value: Nullable(Type.String({ pattern: '^[0-9]{4,8}$', description: '4–8 digits' })),
    read: 'homey.system',
    write: 'homey.system',
  },
  enabled: { value: Type.Boolean(), read: 'homey.system', write: 'homey.system' },
} as const;

export const googleAssistantOperations = {
  getState: declareState(op),
  ...declareOptions(op, googleAssistantOptions),
  sync: op({
    name: 'sync',
    method: 'POST',
    path: '/sync',
    scope: 'homey.system',
    response: Type.Object({ requestedAt: Type.String(), syncCount: Type.Integer() }),
    summary: 'Asks Google to fetch the list of devices again.',
  }),
} as const;

/** Wire events of the Google Assistant manager. */
export const googleAssistantEvents = managerEvents('google-assistant', {
  events: { ...optionEvents, sync: googleAssistantOperations.sync.response },
});
