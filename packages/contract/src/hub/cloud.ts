import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState, Nullable } from './options';

/** Whether someone owns the hub, and while nobody does, the code (and its QR) that claims it. */
export const HubClaim = Type.Object({
  /**
   * `unclaimed`: nobody owns the hub, `code` claims it. `claimed`: it has an owner. `no_cloud`: the hub has no
   * cloud to be claimed in (only its local sign-in). `unavailable`: the cloud did not answer; ask again.
   */
  state: Type.Union([Type.Literal('unclaimed'), Type.Literal('claimed'), Type.Literal('no_cloud'), Type.Literal('unavailable')]),
  /** The short code (8 characters, no 0/O or 1/I), while `unclaimed`; never to a request through the cloud's relay. */
  code: Nullable(Type.String()),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  /** The account page that claims the hub with this code filled in. */
  claimUrl: Nullable(Type.String()),
  /** A QR code of `claimUrl`, as an SVG `data:` URL. */
  claimQr: Nullable(Type.String()),
});

const op = hubManager('cloud');

export const cloudManagerOperations = {
  getState: declareState(op),
  getClaim: op({
    name: 'getClaim',
    method: 'GET',
    path: '/claim',
    scope: null,
    auth: false,
    response: HubClaim,
    summary: 'Whether the hub has an owner; while it has none, the short code (and QR) that claims it.',
    description:
      'Needs no session: a hub nobody owns has nobody to sign in, and its web page shows this code to whoever stands in front of it, as its log does. Once claimed it answers only `claimed`. The code changes every 15 minutes and works once. A request through the cloud’s relay learns only that the hub is `unclaimed`, never its code: the code is for whoever is at the hub.',
  }),
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
