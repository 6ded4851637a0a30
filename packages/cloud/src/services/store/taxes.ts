import { notFound, storeVatOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { buyerOf } from './buyer';
import { SHIPPING_COUNTRIES } from './catalogue';
import { cartRow } from './shop';
import type { CartLine } from './tables';
import {
  checkVatNumber,
  offlineVatRegistry,
  reverseCharge,
  splitVat,
  type VatNumberCheck,
  type VatNumberRegistry,
  vatRate,
} from './vat';
import { type AddressProvider, embeddedAddressProvider } from './zipcode';

type CartRowValue = Awaited<ReturnType<typeof cartRow>>;

/** Where the goods go: the shipping address's country when one is used, else the billing one, else the locale's. */
export function destinationCountry(row: CartRowValue): string {
  const data = row.userdata;
  const country = data.shipping_address === true ? data.shipping_country : data.billing_country;
  return typeof country === 'string' ? country : row.country;
}

/** The VAT that applies to a cart: the destination's rate, and reverse charge for a qualifying business buyer. */
export async function vatSituation(
  row: CartRowValue,
  registry: VatNumberRegistry,
  country = destinationCountry(row),
  number?: string,
) {
  const rate = vatRate(country);
  const data = row.userdata;
  const vatNumber =
    number ?? (data.is_business === true && typeof data.business_vat === 'string' ? data.business_vat : undefined);
  const check: VatNumberCheck | undefined = vatNumber === undefined ? undefined : await checkVatNumber(vatNumber, registry);
  return { rate, check, reverseCharge: reverseCharge(country, check) };
}

/** The cart's lines priced in the locale's currency from the catalogue (VAT included), in cents. */
export async function cartTotal(trx: Kysely<CloudSchema>, row: CartRowValue): Promise<number> {
  const lines = row.items as CartLine[];
  if (lines.length === 0) return 0;
  const products = await trx
    .selectFrom('store_products')
    .select(['sku', 'prices'])
    .where(
      'sku',
      'in',
      lines.map((line) => line.sku),
    )
    .execute();
  const price = new Map(products.map((p) => [p.sku, (p.prices as Record<string, number>)[row.currency] ?? 0]));
  return lines.reduce((sum, line) => sum + (price.get(line.sku) ?? 0) * line.quantity, 0);
}

/** `GET /store/vat` and `GET /store/util/zipcode`: the rates and numbers of checkout, and the address lookup. */
export function taxImplementations(context: CloudContext, registry: VatNumberRegistry = offlineVatRegistry) {
  const { db } = context.database;
  let addresses: Promise<AddressProvider> | null = null;
  return implement<typeof storeVatOperations, CloudPrincipal>(storeVatOperations, {
    getVat: async ({ query, principal, request }) => {
      const row = await cartRow(db, buyerOf(request, principal), new Date(context.clock.now()));
      const country = query.country ?? destinationCountry(row);
      const { rate, check, reverseCharge: reverse } = await vatSituation(row, registry, country, query.number);
      const amounts = splitVat(await cartTotal(db, row), rate.basisPoints, reverse);
      return {
        country,
        eu: rate.eu,
        rate: rate.basisPoints / 100,
        rateBasisPoints: rate.basisPoints,
        source: rate.source,
        ...(check ? { vatNumber: check } : {}),
        reverseCharge: reverse,
        cart: { currency: row.currency, ...amounts },
      };
    },
    getZipcode: async ({ query, principal, request }) => {
      const buyer = buyerOf(request, principal);
      const country = query.country ?? (await cartRow(db, buyer, new Date(context.clock.now()))).country;
      if (!(country in SHIPPING_COUNTRIES)) throw notFound('Address', `${query.zipcode} ${query.number}`);
      addresses ??= embeddedAddressProvider(context.config.store?.zipcodeFile);
      const address = await (await addresses).lookup({ country, zipcode: query.zipcode, number: query.number });
      if (!address) throw notFound('Address', `${country} ${query.zipcode} ${query.number}`);
      return address;
    },
  });
}
