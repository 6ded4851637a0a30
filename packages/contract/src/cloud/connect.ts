import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('connect', '/connect');

const HubId = Type.String({ pattern: '^[0-9a-f]{24}$', description: 'The hub’s id (24 hex characters)' });
const Free = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });

/** What the cloud passes to a hub for each connect call it forwards (through the hub's tunnel, `/api/connect/…`). */
export const ConnectForward = {
  pushConfirm: Type.Object({ pushId: Text(200), choice: Text(200) }),
  mobileEvent: Type.Object({ athomId: Text(64), deviceId: Text(64), message: Text(4000) }),
  oauth2Callback: Type.Object({ code: Type.Optional(Text(4000)), token: Type.Optional(Text(4000)) }),
  webhook: Type.Object({ webhookId: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$' }), args: Type.Optional(Free) }),
} as const;

const offline =
  'Answers 404 for a hub id the cloud does not know, 503 `hub_offline` ("This hub is offline") when the hub has no tunnel to the cloud, and 429 with `Retry-After` past the hub’s relay budget.';

/**
 * The connect relay's calls (`/connect`): things that happen to a hub away from home — a ping, an invitation
 * accepted, a push notification answered, a mobile app's signed event, an OAuth2 provider's answer, a webhook —
 * received by the cloud and forwarded to the hub through its tunnel.
 */
export const connectOperations = {
  getHomeysOnline: op({
    name: 'getHomeysOnline',
    method: 'GET',
    path: '/user/me/homeys',
    scope: null,
    response: Type.Array(Type.Object({ homeyId: Type.String(), online: Type.Boolean() })),
    summary: 'Which of the caller’s hubs (owned or shared) hold a tunnel to the cloud right now.',
    description:
      'Read often by the account pages to show each hub online or offline as it changes. A hub counts as online while a cloud node holds its tunnel (the tunnel directory), so a hub that vanished without closing it is offline within three heartbeats.',
  }),
  ping: op({
    name: 'ping',
    method: 'GET',
    path: '/homey/:homeyId/ping',
    scope: null,
    params: Type.Object({ homeyId: HubId }),
    errors: ['not_found', 'hub_offline', 'rate_limited'],
    summary:
      'Pings one of the caller’s hubs (owned or shared) through its tunnel: its own answer, with its `X-Homey-ID`, `X-Homey-Version` and `X-Homey-Tier`.',
    description: `Needs the token of a user of the hub: a hub the caller does not belong to answers 404 exactly as an id nobody registered does, so the call tells nobody else whether a hub exists, whether it is online, or its version. ${offline}`,
  }),
  acceptSharingRequest: op({
    name: 'acceptSharingRequest',
    method: 'POST',
    path: '/homey/:homeyId/invite/accept',
    scope: null,
    auth: false,
    params: Type.Object({ homeyId: HubId }),
    body: Type.Object({ athomId: Text(64), inviteToken: Text(500) }),
    errors: ['not_found', 'hub_offline', 'rate_limited'],
    summary: 'Accepts a hub’s invitation: the hub binds the invited user to the cloud account `athomId`.',
    description: `The invitation token is the credential; the hub checks it and answers the user it bound. ${offline}`,
  }),
  confirmPushNotification: op({
    name: 'confirmPushNotification',
    method: 'POST',
    path: '/homey/:homeyId/push/confirm/:pushId',
    scope: null,
    auth: false,
    params: Type.Object({ homeyId: HubId, pushId: Text(200) }),
    body: Type.Object({ choice: Text(200) }),
    errors: ['not_found', 'hub_offline', 'rate_limited'],
    summary: 'Forwards the choice a person made on a push notification to the hub that sent it.',
    description: offline,
  }),
  sendMobileEvent: op({
    name: 'sendMobileEvent',
    method: 'POST',
    path: '/mobile/event',
    scope: null,
    auth: false,
    query: Type.Object({ homeyId: HubId }),
    body: Type.Object({ deviceId: Text(64), userId: Text(64), message: Text(4000), signature: Text(2000) }),
    errors: ['forbidden', 'not_found', 'hub_offline', 'rate_limited'],
    summary: 'Forwards a signed event of a person’s mobile app (a geofence crossing, say) to their hub.',
    description:
      '`signature` is the base64 signature of `message` by the mobile device’s key (the `publicKey` of the user’s registered device `deviceId`); a signature that does not verify, an unknown device, or a user who is not a member of the hub answers 403 and forwards nothing. ' +
      offline,
  }),
  sendOAuth2Callback: op({
    name: 'sendOAuth2Callback',
    method: 'POST',
    path: '/homey/:homeyId/callback/oauth2',
    scope: null,
    auth: false,
    params: Type.Object({ homeyId: HubId }),
    body: ConnectForward.oauth2Callback,
    errors: ['not_found', 'hub_offline', 'rate_limited'],
    summary: 'Forwards an OAuth2 provider’s answer (`code`, and the `token` naming the waiting sign-in) to the hub.',
    description: offline,
  }),
  sendWebhook: op({
    name: 'sendWebhook',
    method: 'POST',
    path: '/homey/:homeyId/webhook/:webhookId',
    scope: null,
    auth: false,
    params: Type.Object({ homeyId: HubId, webhookId: ConnectForward.webhook.properties.webhookId }),
    body: Type.Object({ args: Type.Optional(Free) }),
    errors: ['not_found', 'hub_offline', 'rate_limited'],
    summary: 'Delivers a webhook call to the hub, which starts the flows that wait for this webhook.',
    description: `\`args.tag\`, when text, is the webhook's tag. ${offline}`,
  }),
} as const;
