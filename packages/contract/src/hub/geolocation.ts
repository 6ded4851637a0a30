import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, Nullable } from './options';

const op = hubManager('geolocation');

export const GeoLocation = Type.Object({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  accuracy: Type.Optional(Type.Number({ minimum: 0 })),
});

export const GeoAddress = Type.Object(
  {
    street: Type.Optional(Type.String()),
    houseNumber: Type.Optional(Type.String()),
    postalCode: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    region: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const geolocationOptions = {
  mode: { value: Type.Enum(['auto', 'manual']), read: 'homey.geolocation.readonly', write: 'homey.geolocation' },
  location: {
    value: Nullable(GeoLocation),
    read: 'homey.geolocation.readonly',
    write: 'homey.geolocation',
  },
  address: {
    value: Nullable(GeoAddress),
    read: 'homey.geolocation.readonly',
    write: 'homey.geolocation',
  },
} as const;

export const geolocationOperations = {
  getState: declareState(op),
  ...declareOptions(op, geolocationOptions),
} as const;

/** Wire events of the geolocation manager. */
export const geolocationEvents = managerEvents('geolocation', { events: optionEvents });
