import { randomBytes } from 'node:crypto';
import type { CloudDatabase } from '../../database';

/**
 * A secret every node of the cloud uses alike, e.g. the key of the sign-in forms' CSRF tokens: a form one node
 * served must be accepted by whichever node the load balancer sends its submission to. Configured when the
 * operator gives one; otherwise made by the first node that needs it and kept in the database, so every node
 * (and a restarted one) reads the same.
 */
export async function sharedSecret(database: CloudDatabase, name: string, configured?: string | null): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  const { db } = database;
  // Two nodes starting together both insert; the first wins and both read the winner's value.
  await db
    .insertInto('shared_secrets')
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('shared_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}
