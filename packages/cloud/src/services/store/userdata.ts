import { HearthError, invalidParameter, type StoreUserdataBody, storeUserdataOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { SHIPPING_COUNTRIES } from './catalogue';
import { cartRow } from './shop';

/** Region codes Unicode knows a name for: a well-formed code that is no country has none. */
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** What the merged data must hold together, beyond each field's own format. */
function checkUserdata(data: StoreUserdataBody): void {
  for (const field of ['billing_country', 'shipping_country'] as const) {
    const country = data[field];
    if (typeof country === 'string' && regions.of(country) === undefined)
      throw invalidParameter(field, `${country} is no country`);
  }
  // Goods go to the shipping address when there is one, else to the billing address: the store must ship there.
  const destination = data.shipping_address === true ? 'shipping_country' : 'billing_country';
  const country = data[destination];
  if (typeof country === 'string' && !(country in SHIPPING_COUNTRIES))
    throw invalidParameter(destination, `The store does not ship to ${country}`);
  if (data.is_business === true && typeof data.business_name !== 'string')
    throw new HearthError('missing_parameter', 'Missing Parameter: business_name (a business buyer has a name)');
  if (data.create_account === true)
    throw new HearthError('conflict', 'This buyer is signed in: the account exists already (create_account is for guests)');
}

/** The buyer's data for checkout (`PUT /store/userdata`, `PUT /store/business`), kept beside the user's cart. */
export function userdataImplementations(context: CloudContext) {
  const { db } = context.database;
  /** Merges `change` (`null` removes a field) into the user's data, checked as a whole; nothing is kept when refused. */
  const change = (userId: string, fields: Record<string, string | boolean | null | undefined>) =>
    db.transaction().execute(async (trx) => {
      const row = await cartRow(trx, userId, true);
      const merged: StoreUserdataBody = { ...row.userdata };
      for (const [key, value] of Object.entries(fields)) {
        if (value === null) delete merged[key];
        else if (value !== undefined) merged[key] = value;
      }
      checkUserdata(merged);
      await trx
        .updateTable('store_carts')
        .set({ userdata: JSON.stringify(merged), updated_at: new Date() })
        .where('user_id', '=', userId)
        .execute();
      return merged;
    });
  return implement<typeof storeUserdataOperations, CloudPrincipal>(storeUserdataOperations, {
    setUserdata: ({ body, principal }) => change(requireUser(principal), body as Record<string, string | boolean | null>),
    setBusiness: ({ body, principal }) =>
      change(requireUser(principal), {
        is_business: true,
        business_name: body.name,
        business_vat: body.vat,
        business_reference: body.reference,
      }),
  });
}
