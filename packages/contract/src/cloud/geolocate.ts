import { type Static, Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('geolocate', '/geolocate');

/** Where a place was found: the IP database the answer comes from, with the attribution its licence asks. */
export const GeolocationSource = Type.Object({
  name: Type.String(),
  licence: Type.String(),
  url: Type.String(),
});

export const GeolocationAnswer = Type.Object({
  /** The address that was looked up. */
  ip: Type.String(),
  /** ISO 3166-1 alpha-2 country code, and the country's English name. */
  country: Type.String(),
  countryName: Type.String(),
  region: Type.String(),
  city: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  /** The IANA time zone at the coordinates. */
  timezone: Type.String(),
  /** How precise the place is: the city the address is registered in. */
  accuracy: Type.Literal('city'),
  source: GeolocationSource,
});
export type GeolocationAnswerBody = Static<typeof GeolocationAnswer>;

export const geolocateOperations = {
  getLocation: op({
    name: 'getLocation',
    method: 'POST',
    path: '/geolocate',
    scope: null,
    auth: false,
    body: Type.Object({
      homeyId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** The address to look up; the caller's own address when absent. */
      homeyIP: Type.Optional(Type.String({ minLength: 2, maxLength: 45 })),
      /** Cell towers around the caller. Accepted for compatibility; the place is found from the address alone. */
      towers: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 50 })),
    }),
    response: GeolocationAnswer,
    errors: ['invalid_parameter', 'not_found', 'rate_limited'],
    summary:
      "The country, region, city, coordinates and time zone of an IP address (`homeyIP`, else the caller's), from an IP-to-city database the cloud holds (DB-IP's IP to City Lite, CC BY 4.0): no outside service is asked. Addresses of private networks have no place (404).",
  }),
} as const;
