import { createPublicKey, verify } from 'node:crypto';
import { cloudOperations, type ErrorCode, errorCatalogue, HearthError, isErrorBody, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { hubFor } from '../cloud/directory';
import type { TunnelDirectory } from './directory';
import type { HubAnswer, Relay } from './relay';

const connectOps = cloudOperations.connect;

/** The hub's headers a ping passes on: discovery reads them. */
const PING_HEADERS = new Set(['x-homey-id', 'x-homey-version', 'x-homey-tier']);

/** The hub's answer as this call's answer: its decoded body, or its error with the hub's code and status. */
function decoded(answer: HubAnswer): unknown {
  const text = answer.body.toString();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // A body that is not JSON is answered as the text it is.
  }
  if (answer.status < 400) return body;
  if (isErrorBody(body) && body.error in errorCatalogue && errorCatalogue[body.error as ErrorCode].status === answer.status)
    throw new HearthError(body.error as ErrorCode, body.error_description);
  throw new HearthError('bad_gateway', `The hub answered ${answer.status}`);
}

/**
 * Checks a mobile device's signature of `message`: the key is the `publicKey` the device registered with the
 * user's account (PEM; Ed25519, or RSA/ECDSA over SHA-256).
 */
function signatureHolds(publicPem: string, message: string, signature: string): boolean {
  try {
    const key = createPublicKey(publicPem);
    const algorithm = key.asymmetricKeyType === 'ed25519' || key.asymmetricKeyType === 'ed448' ? null : 'sha256';
    return verify(algorithm, Buffer.from(message), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * The connect calls: each is forwarded to the hub through its tunnel. Ping and invitations go to the hub's own
 * public operations; the rest go to `/api/connect/…`, which the hub serves only on streams the cloud opened itself.
 */
export function connectImplementations(context: CloudContext, relay: Relay, directory: TunnelDirectory) {
  const { db } = context.database;
  /** Forwards to a registered hub; an id the cloud does not know is not found (and not offline). */
  const forward = async (hubId: string, method: string, url: string, body?: unknown) => {
    const hub = await db.selectFrom('hubs').select('id').where('id', '=', hubId).executeTakeFirst();
    if (!hub) throw notFound('Hub', hubId);
    return relay.call(hubId, method, url, body);
  };
  return implement<typeof connectOps, CloudPrincipal>(connectOps, {
    getHomeysOnline: async ({ principal }) => {
      const userId = requireUser(principal);
      const hubs = await db
        .selectFrom('hubs')
        .select('id')
        .where((w) =>
          w.or([
            w('owner_user_id', '=', userId),
            w('id', 'in', w.selectFrom('hub_users').select('hub_users.hub_id').where('hub_users.user_id', '=', userId)),
          ]),
        )
        .execute();
      return Promise.all(hubs.map(async ({ id }) => ({ homeyId: id, online: (await directory.locate(id)) !== null })));
    },
    ping: async ({ params, principal, reply }) => {
      // Only the hub's own users learn anything of it: to anyone else it is not found, as an unknown id is.
      await hubFor(db, principal, params.homeyId, 'read');
      const answer = await forward(params.homeyId, 'GET', `/api/manager/system/ping?id=${params.homeyId}`);
      for (let i = 0; i + 1 < answer.headers.length; i += 2) {
        const name = (answer.headers[i] as string).toLowerCase();
        if (PING_HEADERS.has(name)) reply.header(name, answer.headers[i + 1]);
      }
      return decoded(answer);
    },
    acceptSharingRequest: async ({ params, body }) =>
      decoded(
        await forward(params.homeyId, 'POST', '/api/manager/users/accept', {
          athomId: body.athomId,
          inviteToken: body.inviteToken,
        }),
      ),
    confirmPushNotification: async ({ params, body }) =>
      decoded(await forward(params.homeyId, 'POST', '/api/connect/push-confirm', { pushId: params.pushId, choice: body.choice })),
    sendMobileEvent: async ({ query, body }) => {
      const device = await db
        .selectFrom('user_devices')
        .select('public_key')
        .where('id', '=', body.deviceId)
        .where('user_id', '=', body.userId)
        .executeTakeFirst();
      if (!device?.public_key || !signatureHolds(device.public_key, body.message, body.signature))
        throw new HearthError('forbidden', 'The signature of this mobile event does not verify');
      // The signer must belong to the hub, as owner or member: seen as the hubs registry sees them.
      const signer = { userId: body.userId, internal: false, scopes: null, clientId: '', tokenId: '', familyId: '' };
      const member = await hubFor(db, signer, query.homeyId, 'read').then(
        () => true,
        () => false,
      );
      if (!member) throw new HearthError('forbidden', 'This user is not a member of this hub');
      return decoded(
        await forward(query.homeyId, 'POST', '/api/connect/mobile-event', {
          athomId: body.userId,
          deviceId: body.deviceId,
          message: body.message,
        }),
      );
    },
    sendOAuth2Callback: async ({ params, body }) =>
      decoded(await forward(params.homeyId, 'POST', '/api/connect/oauth2-callback', body)),
    sendWebhook: async ({ params, body }) =>
      decoded(
        await forward(params.homeyId, 'POST', '/api/connect/webhook', {
          webhookId: params.webhookId,
          ...(body?.args ? { args: body.args } : {}),
        }),
      ),
  });
}
