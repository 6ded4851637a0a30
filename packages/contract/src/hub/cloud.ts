import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState } from './options';

const op = hubManager('cloud');

export const cloudManagerOperations = {
  getState: declareState(op),
  receiveWebhook: op({
    name: 'receiveWebhook',
    method: 'POST',
    path: '/webhook',
    scope: null,
    auth: false,
    body: Type.Object({ delivery: Type.String({ minLength: 2, maxLength: 1_000_000 }) }, { additionalProperties: false }),
    response: Type.Object({ id: Type.String(), duplicate: Type.Boolean() }),
    errors: ['forbidden', 'invalid_parameter', 'unavailable'],
    summary: 'Takes a webhook call the cloud delivers to this hub (`WebhookDelivery` of the cloud’s webhook service).',
    description:
      'Only the cloud can make one: the `x-hearth-signature` header must sign `delivery` with this hub’s secret, at most five minutes ago. Each delivery id is acted on once; a repeat (the cloud retrying) answers `duplicate: true`. The call reaches the apps and flows listening on its webhook.',
  }),
} as const;
