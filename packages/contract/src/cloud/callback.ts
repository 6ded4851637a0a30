import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('callback', '/callback');

export const CallbackRegistration = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  /** The address to hand to the OAuth2 provider as its redirect address. */
  url: Type.String(),
  callback_url: Type.String(),
});

export const callbackOperations = {
  registerCallbackUrl: op({
    name: 'registerCallbackUrl',
    method: 'POST',
    path: '/oauth2',
    scope: null,
    body: Type.Object({ callback_url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }) }),
    response: CallbackRegistration,
    successStatus: 201,
    summary:
      'Registers where an OAuth2 provider’s answer should go: answers a stable cloud address (`url`) that forwards every request it receives, with its query, to `callback_url`.',
  }),
} as const;
