import { type TSchema, Type } from 'typebox';
import { cloudService } from '../operation';
import { DateTime } from './schemas';

const op = cloudService('webhooks', '/webhooks');

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const open = Type.Record(Type.String(), Type.Unknown());
/** Record ids of the cloud: 24 hexadecimal characters. */
const RecordId = Type.String({ pattern: '^[0-9a-f]{24}$' });
/** A credential carried in the query (the wire puts it there). */
const QueryCredential = Type.String({ minLength: 1, maxLength: 4000 });
/** A dotted path into a call: `query.<name>`, `body.<path>` or `headers.<name>`. */
const KeyPath = Type.String({ maxLength: 200, pattern: '^$|^(query|body|headers)(\\.[A-Za-z0-9_$-]+)+$' });

/** Limits of the webhook service. */
export const WEBHOOK_LIMITS = {
  /** Attempts of one delivery to a hub before it is given up (`failed`). */
  maxAttempts: 8,
  /** Deliveries listed per webhook (`getWebhook`): the newest. */
  listedDeliveries: 20,
  /** How long a delivery is kept after it was made. */
  keepDeliveriesSeconds: 7 * 24 * 3600,
  /** A hub refuses a delivery signed longer ago than this (replays). */
  signatureMaxAgeSeconds: 300,
} as const;

/**
 * The webhook every hub's flows listen on: the provider's own. A hub registers for it with a random key
 * (`data.$key`); a call to `/webhooks/webhook/<this id>?key=<key>&event=<event>&tag=<tag>` reaches that hub's
 * logic manager, which starts the flows whose trigger is "a webhook was called" with that event.
 */
export const HUB_LOGIC_WEBHOOK_ID = '4865617274686c6f67696301';

/** The HTTP header carrying a delivery's signature (see {@link WebhookDelivery}). */
export const WEBHOOK_SIGNATURE_HEADER = 'x-hearth-signature';

export const WebhookDeliveryRecord = Type.Object({
  id: Type.String(),
  homeyId: Type.String(),
  /** `pending` while attempts remain, `delivered` once the hub accepted it, `failed` after the last attempt. */
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Number(),
  /** The HTTP status of the last attempt, `null` when the hub could not be reached. */
  lastStatus: Nullable(Type.Number()),
  lastError: Nullable(Type.String()),
  createdAt: DateTime,
  deliveredAt: Nullable(DateTime),
  nextAttemptAt: Nullable(DateTime),
});

export const Webhook = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  name: Type.String(),
  /** Kept as the developer sent it: the cloud never runs code it is sent. Matching uses `keyPath`. */
  fn: Type.String(),
  /**
   * Where in a call the key is (`query.id`, `body.account.id`, `headers.x-account`): the call reaches the hubs
   * whose registration's `data.$key` equals it. Empty: every registered hub gets every call.
   */
  keyPath: Type.String(),
  /** The address to call: `POST` (a JSON body) or `GET`, with the key where `keyPath` says. */
  url: Type.String(),
  /** Hubs registered for this webhook now. */
  clients: Type.Number(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const WebhookWithDeliveries = Type.Object({
  ...Webhook.properties,
  /** The latest deliveries to hubs, newest first. */
  deliveries: Type.Array(WebhookDeliveryRecord),
});

export const WebhookChanges = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    fn: Type.Optional(Type.String({ maxLength: 20_000 })),
    keyPath: Type.Optional(KeyPath),
  },
  { additionalProperties: false },
);

/**
 * What the cloud posts to a hub for one call of a webhook it registered for: `delivery` is this object as JSON
 * text, signed in the {@link WEBHOOK_SIGNATURE_HEADER} header as `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<delivery>">` with the hub's secret as key. The hub checks the signature over the exact text, refuses an
 * old one, and acts on each delivery id once (the cloud retries until the hub answers 2xx).
 */
export const WebhookDelivery = Type.Object({
  id: Type.String(),
  webhookId: Type.String(),
  homeyId: Type.String(),
  /** The registration's `data`, as the hub registered it. */
  data: open,
  query: Type.Record(Type.String(), Type.String()),
  body: Type.Unknown(),
  headers: Type.Record(Type.String(), Type.String()),
  receivedAt: DateTime,
});

const DeveloperToken = Type.Object({ token: QueryCredential });
const WebhookParams = Type.Object({ webhookId: RecordId });
const ClientParams = Type.Object({ webhookId: RecordId, homeyId: RecordId });
/** A webhook's public address takes any query. */
const CallQuery = Type.Record(Type.String(), Type.String({ maxLength: 2000 }));

const tokenText =
  '`token` is an access token of the developer (the Bearer token of `/cloud`), as the wire carries it in the query; an unknown or expired one is refused with 403 (it is no session a client refreshes).';
const callText =
  'The call is matched against the hubs registered for the webhook (`keyPath` against `data.$key`) and delivered to each matching hub at its registered address, retried with back-off until it answers. Answers how many hubs it goes to; the deliveries are listed by `getWebhook`.';

/** Webhooks under `/webhooks`: developers keep them, hubs register for them, anyone calls them. */
export const webhooksOperations = {
  getWebhooks: op({
    name: 'getWebhooks',
    method: 'GET',
    path: '/api/webhook',
    scope: null,
    auth: false,
    query: DeveloperToken,
    response: Type.Array(Webhook),
    errors: ['forbidden'],
    summary: 'The webhooks of the developer the token signs in.',
    description: tokenText,
  }),
  createWebhook: op({
    name: 'createWebhook',
    method: 'POST',
    path: '/api/webhook',
    scope: null,
    auth: false,
    query: DeveloperToken,
    body: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        fn: Type.Optional(Type.String({ maxLength: 20_000 })),
        keyPath: Type.Optional(KeyPath),
      },
      { additionalProperties: false },
    ),
    response: Webhook,
    successStatus: 201,
    errors: ['forbidden', 'invalid_parameter', 'missing_parameter'],
    summary: 'Creates a webhook: apps on hubs register for it by its id, and calls to its `url` reach them.',
    description: tokenText,
  }),
  getWebhook: op({
    name: 'getWebhook',
    method: 'GET',
    path: '/api/webhook/:webhookId',
    scope: null,
    auth: false,
    params: WebhookParams,
    query: DeveloperToken,
    response: WebhookWithDeliveries,
    errors: ['forbidden', 'not_found'],
    summary: 'One of the developer’s webhooks with its latest deliveries to hubs.',
    description: tokenText,
  }),
  updateWebhook: op({
    name: 'updateWebhook',
    method: 'PUT',
    path: '/api/webhook/:webhookId',
    scope: null,
    auth: false,
    params: WebhookParams,
    query: DeveloperToken,
    body: WebhookChanges,
    response: Webhook,
    errors: ['forbidden', 'not_found', 'invalid_parameter'],
    summary: 'Changes a webhook’s name, `fn` or `keyPath`.',
    description: tokenText,
  }),
  deleteWebhook: op({
    name: 'deleteWebhook',
    method: 'DELETE',
    path: '/api/webhook/:webhookId',
    scope: null,
    auth: false,
    params: WebhookParams,
    query: DeveloperToken,
    errors: ['forbidden', 'not_found'],
    summary: 'Deletes a webhook with its registrations and deliveries.',
    description: tokenText,
  }),
  registerWebhookClient: op({
    name: 'registerWebhookClient',
    method: 'PUT',
    path: '/webhook/:webhookId/:homeyId',
    scope: null,
    auth: false,
    params: ClientParams,
    body: Type.Object(
      {
        secret: QueryCredential,
        data: Type.Optional(open),
        callback_url: Type.Optional(Type.String({ maxLength: 2000 })),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ webhookId: Type.String(), homeyId: Type.String(), data: open, registeredAt: DateTime }),
    errors: ['forbidden', 'not_found', 'invalid_parameter'],
    summary:
      'Registers hub `homeyId` for a webhook with `data` (`data.$key` is what `keyPath` is matched against); registering again replaces it.',
    description:
      '`secret` is the hub’s secret (`hubSecret` of `@hearth/contract/hub-secret`), which must name `homeyId`; a forged or another hub’s secret is refused. Deliveries go to the address the hub registered in the hub registry; `callback_url` is accepted for the ecosystem’s clients and not used.',
  }),
  unregisterWebhookClient: op({
    name: 'unregisterWebhookClient',
    method: 'DELETE',
    path: '/webhook/:webhookId/:homeyId',
    scope: null,
    auth: false,
    params: ClientParams,
    query: Type.Object({ secret: QueryCredential }),
    errors: ['forbidden', 'not_found'],
    summary: 'Ends hub `homeyId`’s registration for a webhook.',
    description: '`secret` is the hub’s secret, as for `registerWebhookClient`.',
  }),
  callWebhook: op({
    name: 'callWebhook',
    method: 'POST',
    path: '/webhook/:webhookId',
    scope: null,
    auth: false,
    params: WebhookParams,
    query: CallQuery,
    body: Type.Optional(open),
    response: Type.Object({ webhookId: Type.String(), deliveries: Type.Number() }),
    successStatus: 202,
    errors: ['not_found', 'rate_limited'],
    summary: 'Calls a webhook with a JSON object as its body (its public address).',
    description: callText,
  }),
  callWebhookGet: op({
    name: 'callWebhookGet',
    method: 'GET',
    path: '/webhook/:webhookId',
    scope: null,
    auth: false,
    params: WebhookParams,
    query: CallQuery,
    response: Type.Object({ webhookId: Type.String(), deliveries: Type.Number() }),
    successStatus: 202,
    errors: ['not_found', 'rate_limited'],
    summary: 'Calls a webhook with its query only (its public address, for services that can only GET).',
    description: callText,
  }),
} as const;
