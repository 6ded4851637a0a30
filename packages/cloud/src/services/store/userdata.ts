import { HearthError, invalidParameter, type StoreUserdataBody, storeUserdataOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { checkNewPassword } from '../cloud/account/password-policy';
import { hashPassword } from '../cloud/accounts';
import { type Buyer, buyerOf } from './buyer';
import { SHIPPING_COUNTRIES } from './catalogue';
import { cartRow } from './shop';

/** Region codes Unicode knows a name for: a well-formed code that is no country has none. */
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** What the merged data must hold together, beyond each field's own format. */
function checkUserdata(data: StoreUserdataBody, buyer: Buyer): void {
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
  if (data.create_account === true && buyer.kind === 'user')
    throw new HearthError('conflict', 'This buyer is signed in: the account exists already (create_account is for guests)');
}

/** The buyer's data for checkout (`PUT /store/userdata`, `PUT /store/business`), kept beside the user's cart. */
export function userdataImplementations(context: CloudContext) {
  const { db } = context.database;
  /**
   * Merges `change` (`null` removes a field) into the buyer's data, checked as a whole; nothing is kept when refused.
   * A guest's password for the account checkout will make is checked as sign-up checks one and kept only hashed.
   */
  const change = async (
    buyer: Buyer,
    { password, ...fields }: Record<string, string | boolean | null | undefined> & { password?: string | null },
  ): Promise<StoreUserdataBody> => {
    if (password !== undefined && buyer.kind === 'user')
      throw new HearthError(
        'conflict',
        'This buyer is signed in: their account has its password (change it on the account pages)',
      );
    return db.transaction().execute(async (trx) => {
      const row = await cartRow(trx, buyer, new Date(context.clock.now()), true);
      const merged: StoreUserdataBody = { ...row.userdata };
      for (const [key, value] of Object.entries(fields)) {
        if (value === null) delete merged[key];
        else if (value !== undefined) merged[key] = value;
      }
      checkUserdata(merged, buyer);
      let passwordHash = password;
      if (typeof password === 'string') {
        const { email, billing_firstname, billing_lastname } = merged;
        const words = [email, billing_firstname, billing_lastname].filter((word) => typeof word === 'string');
        checkNewPassword(password, words as string[]);
        passwordHash = await hashPassword(password);
      }
      await trx
        .updateTable('store_carts')
        .set({
          userdata: JSON.stringify(merged),
          ...(passwordHash !== undefined ? { account_password_hash: passwordHash } : {}),
          updated_at: new Date(context.clock.now()),
        })
        .where('id', '=', row.id)
        .execute();
      return merged;
    });
  };
  return implement<typeof storeUserdataOperations, CloudPrincipal>(storeUserdataOperations, {
    setUserdata: ({ body, principal, request }) =>
      change(buyerOf(request, principal), body as Record<string, string | boolean | null>),
    setBusiness: ({ body, principal, request }) =>
      change(buyerOf(request, principal), {
        is_business: true,
        business_name: body.name,
        business_vat: body.vat,
        business_reference: body.reference,
      }),
  });
}
