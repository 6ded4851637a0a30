import { invalidParameter } from '@hearth/contract';
import { checkVAT, countries } from 'jsvat';
import { EU_VAT_RATES, OTHER_VAT_RATES, SELLER_COUNTRY } from './vat-rates';

/** What the tax offices' online register (VIES in the EU) said about a number, or that it could not be asked. */
export interface OnlineVatCheck {
  checked: boolean;
  provider: string;
  valid: boolean | null;
  name?: string;
  reason?: string;
}

/**
 * The official online check of VAT numbers. A provider for VIES fills this interface; the embedded default cannot
 * reach it and says so instead of answering valid or not.
 */
export interface VatNumberRegistry {
  readonly name: string;
  check(country: string, number: string): Promise<OnlineVatCheck>;
}

export const offlineVatRegistry: VatNumberRegistry = {
  name: 'none',
  check: async () => ({
    checked: false,
    provider: 'none',
    valid: null,
    reason: 'No online VAT number register is configured on this cloud: only the format and check digits were checked',
  }),
};

export interface VatNumberCheck {
  number: string;
  country: string | null;
  formatValid: boolean;
  valid: boolean;
  online: OnlineVatCheck;
}

/** `NL 0044.95.445 B01` and `nl004495445b01` are one number. */
export const normalizeVatNumber = (raw: string) => raw.toUpperCase().replace(/[\s.\-_/]/g, '');

/** Format and check digits by the country's own rules (jsvat), then the online register for numbers that pass. */
export async function checkVatNumber(raw: string, registry: VatNumberRegistry): Promise<VatNumberCheck> {
  const number = normalizeVatNumber(raw);
  if (!/^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(number))
    throw invalidParameter('number', 'A VAT number is a country prefix and 2 to 13 characters');
  const result = checkVAT(number, countries);
  const country = result.country?.isoCode.short ?? null;
  const valid = result.isValid && country !== null;
  const online = valid
    ? await registry.check(country as string, number.slice(2))
    : {
        checked: false,
        provider: registry.name,
        valid: null,
        reason: 'Not asked: the number’s format or check digits are wrong',
      };
  return { number, country, formatValid: result.isValidFormat, valid, online };
}

/** The standard rate of a country the store sells to, with its table's source. */
export function vatRate(country: string) {
  const eu = country in EU_VAT_RATES.rates;
  const table = eu ? EU_VAT_RATES : OTHER_VAT_RATES[country];
  const basisPoints = table?.rates[country];
  if (!table || basisPoints === undefined) throw invalidParameter('country', `The store has no VAT rate for ${country}`);
  return { country, eu, basisPoints, source: table.source };
}

/**
 * Reverse charge: a business buyer in another member state than the seller's, whose VAT number is right and of that
 * state, accounts for the VAT itself. A number the online register refused never qualifies; one it could not be
 * asked about does on its format and check digits (the check is shown to the buyer and kept with the order).
 */
export function reverseCharge(country: string, check: VatNumberCheck | undefined): boolean {
  if (!check?.valid || check.online.valid === false) return false;
  return country in EU_VAT_RATES.rates && country !== SELLER_COUNTRY && check.country === country;
}

/** Splits a price that includes VAT into net and VAT, in whole cents; under reverse charge the buyer pays the net. */
export function splitVat(gross: number, basisPoints: number, reverse: boolean) {
  const net = Math.round((gross * 10_000) / (10_000 + basisPoints));
  return reverse ? { gross: net, net, vat: 0 } : { gross, net, vat: gross - net };
}
