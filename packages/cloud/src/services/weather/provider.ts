import type { WeatherConditionsBody, WeatherSource } from '@hearth/contract';
import type { Static } from 'typebox';

/** A place and moment to tell the weather for, and how many following hours. */
export interface WeatherAt {
  readonly latitude: number;
  readonly longitude: number;
  /** Epoch ms. */
  readonly at: number;
  readonly hours: number;
  readonly language: string;
}

/**
 * Where the weather comes from: the cloud's model (the embedded default, no network) or a forecast provider over
 * HTTP, chosen by configuration (`HEARTH_WEATHER_PROVIDER`).
 */
export interface WeatherProvider {
  readonly source: Static<typeof WeatherSource>;
  weatherAt(request: WeatherAt): Promise<{ current: WeatherConditionsBody; hourly: WeatherConditionsBody[] }>;
}
