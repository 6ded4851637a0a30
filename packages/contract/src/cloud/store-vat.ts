import { Type } from 'typebox';
import { cloudService } from '../operation';
import { guestOrUser } from './store-shop';

const op = cloudService('store', '/store');

const Country = Type.String({ pattern: '^[A-Z]{2}$' });

/** Where a rate comes from: the published table and the day it was read. */
export const VatSource = Type.Object({ name: Type.String(), url: Type.String(), date: Type.String({ format: 'date' }) });

/** What is known about a VAT number: its format and check digits here, and the tax office's online answer. */
export const VatNumberCheck = Type.Object({
  /** The number as checked: prefix and digits, without spaces or dots. */
  number: Type.String(),
  /** The country the number belongs to (`GR` for an `EL` number), or `null` when the prefix names none. */
  country: Type.Union([Country, Type.Null()]),
  formatValid: Type.Boolean(),
  /** Format and check digits both right. */
  valid: Type.Boolean(),
  /** The official online check. `checked: false` says it could not be asked, and why; it never guesses. */
  online: Type.Object({
    checked: Type.Boolean(),
    provider: Type.String(),
    valid: Type.Union([Type.Boolean(), Type.Null()]),
    name: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
  }),
});

/** An amount in cents with and without VAT. */
export const VatAmounts = Type.Object({
  /** What the buyer pays, in cents. */
  gross: Type.Integer(),
  /** Without VAT, in cents. */
  net: Type.Integer(),
  /** The VAT in it, in cents (0 under reverse charge). */
  vat: Type.Integer(),
});

export const StoreVat = Type.Object({
  country: Country,
  /** Whether the country is a member of the EU (its VAT rules apply). */
  eu: Type.Boolean(),
  /** The standard rate in percent (e.g. 25.5), and in basis points for exact sums. */
  rate: Type.Number(),
  rateBasisPoints: Type.Integer(),
  source: VatSource,
  vatNumber: Type.Optional(VatNumberCheck),
  /** A valid business VAT number of another EU country than the seller's: the buyer accounts for the VAT. */
  reverseCharge: Type.Boolean(),
  /** The caller's cart in the store locale's currency, with and without VAT as it would be charged. */
  cart: Type.Object({ currency: Type.String(), ...VatAmounts.properties }),
});

export const StoreZipcodeAddress = Type.Object({
  country: Country,
  zipcode: Type.String(),
  number: Type.String(),
  street: Type.String(),
  city: Type.String(),
  /** Which provider answered (`embedded` for the cloud's own data file). */
  provider: Type.String(),
});

/** VAT rates and numbers, and the address lookup of checkout (`/store/vat`, `/store/util/zipcode`). */
export const storeVatOperations = {
  getVat: op({
    name: 'getVat',
    ...guestOrUser,
    method: 'GET',
    path: '/vat',
    scope: null,
    query: Type.Object(
      {
        country: Type.Optional(Country),
        number: Type.Optional(Type.String({ minLength: 4, maxLength: 24 })),
      },
      { additionalProperties: false },
    ),
    response: StoreVat,
    errors: ['missing_token', 'invalid_token', 'invalid_parameter'],
    summary:
      'The VAT rate for a country (the caller’s store country unless given), a VAT number’s validity and whether reverse charge applies, with the cart’s total with and without VAT.',
    description: `Rates come from a table kept as data with its source and date. A number is checked for its format and check digits per country; the online check of the tax offices answers \`checked: false\` when it could not be asked. It reads only the caller’s own cart. ${guestOrUser.description}`,
  }),
  getZipcode: op({
    name: 'getZipcode',
    ...guestOrUser,
    method: 'GET',
    path: '/util/zipcode',
    scope: null,
    query: Type.Object(
      {
        zipcode: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$' }),
        number: Type.String({ pattern: '^[0-9]{1,6}[A-Za-z0-9 -]{0,8}$' }),
        country: Type.Optional(Country),
      },
      { additionalProperties: false },
    ),
    response: StoreZipcodeAddress,
    errors: ['missing_token', 'invalid_token', 'missing_parameter', 'invalid_parameter', 'not_found'],
    summary: 'The street and city of a zipcode and house number, where the address provider knows them (404 otherwise).',
    description: `Both the zipcode and the number are required. The embedded provider answers only from the address data file the cloud was given (\`HEARTH_STORE_ZIPCODE_FILE\`) and never makes up a street. ${guestOrUser.description}`,
  }),
} as const;
