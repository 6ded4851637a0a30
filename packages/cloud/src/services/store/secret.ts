import { timingSafeEqual } from 'node:crypto';
import { HearthError } from '@hearth/contract';
import type { CloudContext } from '../../platform/context';

/** The platform's own calls to the store carry the store secret (`HEARTH_STORE_SECRET`) instead of a token. */
export function requireStoreSecret(context: CloudContext, given: string): void {
  const expected = context.config.store?.secret;
  if (!expected)
    throw new HearthError('forbidden', 'No store secret is set on this cloud (HEARTH_STORE_SECRET): its calls are refused');
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new HearthError('forbidden', 'Invalid store secret');
}
