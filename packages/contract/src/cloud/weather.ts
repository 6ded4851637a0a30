import { type Static, Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('weather', '/weather');

/** A decimal degree as the query carries it (`52.37`, `-4.9`). */
const Degrees = Type.String({ minLength: 1, maxLength: 20, pattern: '^-?[0-9]{1,3}(\\.[0-9]{1,10})?$' });

/** What the weather is like, in one word clients can map to an icon. */
export const WEATHER_STATES = ['clear', 'partly-cloudy', 'cloudy', 'fog', 'drizzle', 'rain', 'snow', 'thunderstorm'] as const;

/** Where an answer comes from: a real forecast provider, or the model the cloud uses without one (`model: true`). */
export const WeatherSource = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** `true` when the answer is the cloud's model of a typical day, not a measurement or a forecast. */
  model: Type.Boolean(),
  description: Type.String(),
});

/** The weather at one moment. Units: °C, relative humidity and cloud cover 0–1, hPa, m/s, degrees, mm/h. */
export const WeatherConditions = Type.Object({
  time: Type.String({ format: 'date-time' }),
  state: Type.Enum([...WEATHER_STATES]),
  /** The state in words, in the asked language where the cloud has it (English otherwise). */
  description: Type.String(),
  temperature: Type.Number(),
  apparentTemperature: Type.Number(),
  humidity: Type.Number({ minimum: 0, maximum: 1 }),
  pressure: Type.Number(),
  cloudCover: Type.Number({ minimum: 0, maximum: 1 }),
  precipitation: Type.Number({ minimum: 0 }),
  windSpeed: Type.Number({ minimum: 0 }),
  windDirection: Type.Number({ minimum: 0, maximum: 360 }),
});
export type WeatherConditionsBody = Static<typeof WeatherConditions>;

/** The weather now at a place (the fields of {@link WeatherConditions}) and the next 24 hours, hour by hour. */
export const WeatherReport = Type.Object({
  ...WeatherConditions.properties,
  source: WeatherSource,
  latitude: Type.Number(),
  longitude: Type.Number(),
  language: Type.String(),
  hourly: Type.Array(WeatherConditions),
});
export type WeatherReportBody = Static<typeof WeatherReport>;

export const cloudWeatherOperations = {
  getWeather: op({
    name: 'getWeather',
    method: 'GET',
    path: '/weather',
    scope: null,
    auth: false,
    query: Type.Object({
      latitude: Degrees,
      longitude: Degrees,
      /** The hub asking (its answers are limited per hub). */
      homey: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
      language: Type.Optional(Type.String({ minLength: 2, maxLength: 10, pattern: '^[A-Za-z]{2}([_-][A-Za-z0-9]{2,8})?$' })),
    }),
    response: WeatherReport,
    errors: ['invalid_parameter', 'rate_limited', 'unavailable'],
    summary:
      'The weather now and for the next 24 hours at a place, for a hub. Answers are kept for 10 minutes per place (rounded to about a kilometre). `source` says where they come from: a forecast provider when the cloud has one configured, otherwise a model of a typical day for the latitude, season and hour (`source.model` is then `true`: it is no forecast).',
  }),
} as const;
