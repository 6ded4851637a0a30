import { HearthError } from '@hearth/contract';
import { hubOfSecret, hubSecret } from '@hearth/contract/hub-secret';
import type { CloudContext } from './context';

/**
 * The hub a `secret` names (`hubSecret` of `@hearth/contract/hub-secret`); refuses with 403 one the provider's
 * internal secret did not make, and every secret when the cloud has no internal client.
 */
export function hubOfSecretOrRefuse(context: CloudContext, secret: string): string {
  const internal = context.config.internalClientSecret;
  const hubId = internal ? hubOfSecret(internal, secret) : null;
  if (!hubId) throw new HearthError('forbidden', 'Invalid secret');
  return hubId;
}

/** The secret of hub `hubId`, which signs what the cloud sends it; `null` when the cloud has no internal client. */
export function secretOfHub(context: CloudContext, hubId: string): string | null {
  const internal = context.config.internalClientSecret;
  return internal ? hubSecret(internal, hubId) : null;
}
