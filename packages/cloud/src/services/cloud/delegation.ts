import { cloudOperations, HearthError } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, jwtVerify, SignJWT } from 'jose';
import { requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import { userRow } from './directory';

const delegationOps = pick(cloudOperations.cloud, ['createDelegationToken', 'verifyDelegationToken', 'getDelegationTokenKey']);

const ALGORITHM = 'RS512';
const KEY_ID = 'current';
/** Delegation tokens are exchanged at once (a hub login): short-lived. */
const LIFETIME_SECONDS = 300;

export interface DelegationKeys {
  kid: string;
  privateKey: Awaited<ReturnType<typeof importPKCS8>>;
  publicKey: Awaited<ReturnType<typeof importSPKI>>;
  publicPem: string;
}

/** The cloud's delegation key pair: generated once, stored, and the same for every node. */
export async function loadDelegationKeys(context: CloudContext): Promise<DelegationKeys> {
  const { db } = context.database;
  let row = await db.selectFrom('delegation_keys').selectAll().where('id', '=', KEY_ID).executeTakeFirst();
  if (!row) {
    const pair = await generateKeyPair(ALGORITHM, { modulusLength: 2048, extractable: true });
    await db
      .insertInto('delegation_keys')
      .values({ id: KEY_ID, private_pem: await exportPKCS8(pair.privateKey), public_pem: await exportSPKI(pair.publicKey) })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await db.selectFrom('delegation_keys').selectAll().where('id', '=', KEY_ID).executeTakeFirstOrThrow();
  }
  return {
    kid: row.id,
    privateKey: await importPKCS8(row.private_pem, ALGORITHM),
    publicKey: await importSPKI(row.public_pem, ALGORITHM),
    publicPem: row.public_pem,
  };
}

/**
 * Delegation: a signed-in user asks for a short-lived JWT for an audience (`homey` for hub logins); hubs verify
 * it with the key published at `/delegation/key`.
 */
export function delegationImplementations(context: CloudContext, keys: () => DelegationKeys) {
  const { db } = context.database;
  const issuer = context.config.publicUrl;

  return implement<typeof delegationOps, CloudPrincipal>(delegationOps, {
    createDelegationToken: async ({ query, body, principal }) => {
      const userId = requireUser(principal);
      const audience = query.audience ?? 'homey';
      const named = query.homeyId ?? (typeof body?.homeyId === 'string' ? body.homeyId : undefined);
      // A token from a code sent to a hub's address speaks for that hub only: its delegation always names it.
      const bound = principal.audienceHubId ?? undefined;
      if (bound !== undefined && ((named !== undefined && named !== bound) || audience !== 'homey'))
        throw new HearthError('forbidden', 'This token was issued to one hub’s web app: it only signs in to that hub');
      const homeyId = bound ?? named;
      const user = await userRow(db, userId);
      let role = 'user';
      if (homeyId !== undefined) {
        const hub = await db.selectFrom('hubs').select(['id', 'owner_user_id']).where('id', '=', homeyId).executeTakeFirst();
        const member = hub
          ? await db
              .selectFrom('hub_users')
              .select('role')
              .where('hub_id', '=', homeyId)
              .where('user_id', '=', userId)
              .executeTakeFirst()
          : undefined;
        if (!hub || (hub.owner_user_id !== userId && !member)) throw new HearthError('not_found', `Hub not found: ${homeyId}`);
        role = hub.owner_user_id === userId ? 'owner' : (member?.role ?? 'user');
      }
      const meta = body?.meta && typeof body.meta === 'object' ? { meta: body.meta } : {};
      return new SignJWT({
        ...meta,
        ...(homeyId !== undefined ? { homeyId } : {}),
        role,
        name: `${user.firstname} ${user.lastname}`.trim() || user.email,
        email: user.email,
        ...(principal.scopes ? { scopes: principal.scopes } : {}),
      })
        .setProtectedHeader({ alg: ALGORITHM, kid: keys().kid, typ: 'JWT' })
        .setSubject(userId)
        .setAudience(audience)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(`${LIFETIME_SECONDS}s`)
        .sign(keys().privateKey);
    },

    verifyDelegationToken: async ({ query }) => {
      try {
        const { payload } = await jwtVerify(query.token, keys().publicKey, {
          algorithms: [ALGORITHM],
          issuer,
          ...(query.audience ? { audience: query.audience } : {}),
        });
        return payload as { sub: string; aud: string; exp: number };
      } catch {
        throw new HearthError('invalid_token', 'Invalid or expired delegation token');
      }
    },

    getDelegationTokenKey: () => keys().publicPem,
  });
}
