import { BACKUP_LIMITS, BACKUP_TOKEN_AUDIENCE, HearthError } from '@hearth/contract';
import { jwtVerify, SignJWT } from 'jose';
import type { CloudContext } from '../../platform/context';
import { hubOfSecretOrRefuse } from '../../platform/hub-secret';
import type { DelegationKeys } from '../cloud/delegation';

/** Audiences of the signed links: a link to upload one backup's archive, or to download it. */
type LinkKind = 'upload' | 'download';
const linkAudience = (kind: LinkKind) => `hearth-backup-${kind}`;
const ALGORITHM = 'RS512';

/**
 * The credentials of the backup service, all in the query as the wire has them: a hub's secret, an owner's
 * delegation token, and the signed links to upload and download archives. Links are JWTs signed with the cloud's
 * delegation key, so any node checks them without shared state. Every refusal is 403 `forbidden`: these
 * credentials are not the session a client refreshes on a 401.
 */
export function backupCredentials(context: CloudContext, keys: () => DelegationKeys) {
  const issuer = context.config.publicUrl;

  return {
    /** The hub a `secret` names; refuses one the provider's internal secret did not make. */
    hubOf(secret: string): string {
      return hubOfSecretOrRefuse(context, secret);
    },

    /** The user a delegation token for the backup audience was issued to. */
    async ownerOf(token: string): Promise<string> {
      try {
        const { payload } = await jwtVerify(token, keys().publicKey, {
          algorithms: [ALGORITHM],
          issuer,
          audience: BACKUP_TOKEN_AUDIENCE,
        });
        if (typeof payload.sub !== 'string') throw new Error('no subject');
        return payload.sub;
      } catch {
        throw new HearthError(
          'forbidden',
          `Invalid or expired token: use a delegation token for the audience ${BACKUP_TOKEN_AUDIENCE}`,
        );
      }
    },

    /** A link to upload or download `backupId`'s archive, valid for an hour. */
    async link(kind: LinkKind, backupId: string): Promise<{ url: string; urlExpiresAt: string }> {
      const expiresAt = Math.floor(context.clock.now() / 1000) + BACKUP_LIMITS.linkLifetimeSeconds;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM, kid: keys().kid, typ: 'JWT' })
        .setSubject(backupId)
        .setAudience(linkAudience(kind))
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(keys().privateKey);
      return {
        url: `${context.config.publicUrl}/backup/${kind}/${backupId}?token=${token}`,
        urlExpiresAt: new Date(expiresAt * 1000).toISOString(),
      };
    },

    /** Refuses a link token that is not for this kind of access to `backupId`, or has expired. */
    async checkLink(kind: LinkKind, backupId: string, token: string): Promise<void> {
      try {
        const { payload } = await jwtVerify(token, keys().publicKey, {
          algorithms: [ALGORITHM],
          issuer,
          audience: linkAudience(kind),
          subject: backupId,
        });
        if (payload.sub !== backupId) throw new Error('another backup');
      } catch {
        throw new HearthError('forbidden', `Invalid or expired ${kind} link`);
      }
    },
  };
}

export type BackupCredentials = ReturnType<typeof backupCredentials>;
