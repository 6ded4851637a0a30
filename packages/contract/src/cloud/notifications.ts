import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('notifications', '/notifications');

/** Record ids of the cloud: 24 hexadecimal characters. */
const RecordId = Type.String({ pattern: '^[0-9a-f]{24}$' });

/** Limits of the push service. */
export const PUSH_LIMITS = {
  /** Users one call may push to. */
  maxUsers: 100,
  /** The notification as JSON, in bytes: what fits one encrypted Web Push message (4096 bytes with its overhead). */
  maxPayloadBytes: 3000,
  /** How long a push service keeps a message for a device that is offline, in seconds. */
  ttlSeconds: 24 * 3600,
} as const;

/**
 * The keys of a browser's push subscription, as a web device registers them (`POST /cloud/user/{id}/device` with
 * `platform: "web"`, `token` the subscription's endpoint and `publicKey` this object as JSON text:
 * `JSON.stringify(subscription.toJSON().keys)`).
 */
export const WebPushKeys = Type.Object({ p256dh: Type.String(), auth: Type.String() });

export const PushResult = Type.Object({
  /** Messages the devices' push services accepted. */
  sent: Type.Number(),
  /** Devices whose push service answered that the subscription is gone (404, 410): removed from their user. */
  removed: Type.Number(),
  /** Messages that failed otherwise (the push service refused or could not be reached). */
  failed: Type.Number(),
  /** Devices with no web push subscription (no endpoint or keys), and users of the batch not in the hub's household. */
  skipped: Type.Number(),
});

/** Push notifications under `/notifications`: Web Push (RFC 8030/8291/8292) to the devices users registered. */
export const pushOperations = {
  push: op({
    name: 'push',
    method: 'POST',
    path: '/push',
    scope: null,
    private: true,
    query: Type.Object({ secret: Type.String({ minLength: 1, maxLength: 4000 }) }),
    body: Type.Object(
      {
        /** The users to notify: each of their registered web devices gets the message. */
        batch: Type.Array(RecordId, { minItems: 1, maxItems: PUSH_LIMITS.maxUsers }),
        /** The notification the device shows: at least a `title` or a `body`; any other fields travel along. */
        data: Type.Object(
          {
            title: Type.Optional(Type.String({ maxLength: 200 })),
            body: Type.Optional(Type.String({ maxLength: 2000 })),
            url: Type.Optional(Type.String({ maxLength: 2000 })),
            tag: Type.Optional(Type.String({ maxLength: 100 })),
          },
          { additionalProperties: true },
        ),
      },
      { additionalProperties: false },
    ),
    response: PushResult,
    errors: ['forbidden', 'invalid_parameter', 'payload_too_large', 'rate_limited'],
    summary:
      'Sends a notification to every web device of the users in `batch` by Web Push: encrypted for each device (RFC 8291, aes128gcm) and signed with the cloud’s VAPID key (RFC 8292). Subscriptions the push service reports gone are removed.',
    description:
      'For the provider’s hubs (internal client): `secret` is the hub’s secret (`hubSecret` of `@hearth/contract/hub-secret`), and only users of that hub’s household (its owner and users) are notified.',
  }),
  getVapidKey: op({
    name: 'getVapidKey',
    method: 'GET',
    path: '/push/vapid',
    scope: null,
    auth: false,
    response: Type.Object({ publicKey: Type.String() }),
    summary:
      'The cloud’s VAPID public key (base64url, uncompressed P-256 point): a browser subscribes with it as `applicationServerKey`, so only this cloud can push to that subscription.',
  }),
} as const;
