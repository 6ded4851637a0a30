import { readFile } from 'node:fs/promises';

export interface ZipcodeAddress {
  country: string;
  zipcode: string;
  number: string;
  street: string;
  city: string;
  provider: string;
}

/**
 * Looks up the street and city of a zipcode and house number. A provider for a national register (the Dutch BAG,
 * a postal service's API) fills this interface; `null` means it does not know the address.
 */
export interface AddressProvider {
  readonly name: string;
  lookup(query: { country: string; zipcode: string; number: string }): Promise<ZipcodeAddress | null>;
}

const zipKey = (zipcode: string) => zipcode.toUpperCase().replace(/[\s-]/g, '');
const numberKey = (number: string) => number.toUpperCase().replace(/\s/g, '');
const key = (country: string, zipcode: string, number: string) => `${country}|${zipKey(zipcode)}|${numberKey(number)}`;

/**
 * The embedded provider: answers only from the address file the cloud was given (CSV lines
 * `country,zipcode,number,street,city`), read once at start; without one it knows no address at all.
 */
export async function embeddedAddressProvider(file: string | null | undefined): Promise<AddressProvider> {
  const addresses = new Map<string, ZipcodeAddress>();
  if (file) {
    const text = await readFile(file, 'utf8');
    for (const [index, line] of text.split(/\r?\n/).entries()) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      const [country, zipcode, number, street, city, ...rest] = line.split(',').map((field) => field.trim());
      if (!country || !zipcode || !number || !street || !city || rest.length > 0 || !/^[A-Z]{2}$/.test(country))
        throw new Error(`${file}:${index + 1}: expected country,zipcode,number,street,city`);
      addresses.set(key(country, zipcode, number), { country, zipcode, number, street, city, provider: 'embedded' });
    }
  }
  return {
    name: 'embedded',
    lookup: async ({ country, zipcode, number }) => addresses.get(key(country, zipcode, number)) ?? null,
  };
}
