import { createHash } from 'node:crypto';
import type { WeatherConditionsBody } from '@hearth/contract';
import type { WeatherAt, WeatherProvider } from './provider';
import { describeState, stateOf } from './states';

/**
 * The cloud's weather when no forecast provider is configured: a model of a typical day at a place, from its
 * latitude, the season and the hour. It is not a forecast and says so (`source.model`). How it works:
 * - The day's mean temperature follows the zonal mean of the latitude (a table of typical annual means), plus a
 *   seasonal swing whose size grows with the latitude, warmest around 19 July in the north and 19 January in the
 *   south; the hour adds a daily swing of ±4 °C, warmest at 15:00 local solar time (UTC + longitude / 15 h).
 * - Cloud cover, wind and their change from day to day come from a pseudo-random value fixed per place (a cell of
 *   0.1°) and day, blended smoothly across the hours, so an answer is stable for a place and moment and changes
 *   gradually.
 * - Rain (or snow below 1 °C) falls from cloud cover above 75 %, more as it thickens; humidity and pressure
 *   follow the cloud cover; the apparent temperature subtracts wind chill below 10 °C and adds humidity above 26 °C.
 */
export class WeatherModel implements WeatherProvider {
  readonly source = {
    id: 'hearth-model',
    name: 'Hearth weather model',
    model: true,
    description:
      'A model of a typical day for this latitude, season and hour, without a forecast provider. Not a forecast and not measured.',
  };

  async weatherAt({ latitude, longitude, at, hours, language }: WeatherAt) {
    const conditions = (time: number) => modelConditions(latitude, longitude, time, language);
    const hourStart = Math.floor(at / 3_600_000) * 3_600_000;
    return {
      current: conditions(at),
      hourly: Array.from({ length: hours }, (_, i) => conditions(hourStart + (i + 1) * 3_600_000)),
    };
  }
}

/** Typical annual mean temperature (°C) by absolute latitude, and the seasonal half-swing, each every 10°. */
const ANNUAL_MEAN = [27, 26.5, 25, 20, 14, 9, 3, -6, -16, -25];
const SEASONAL_SWING = [1, 2, 4, 7, 9, 8, 11, 15, 18, 20];
const DAY_MS = 86_400_000;

function byLatitude(table: readonly number[], latitude: number): number {
  const position = Math.min(Math.abs(latitude), 90) / 10;
  const below = Math.min(Math.floor(position), table.length - 1);
  const above = Math.min(below + 1, table.length - 1);
  const fraction = position - below;
  return (table[below] as number) * (1 - fraction) + (table[above] as number) * fraction;
}

/** A value in [0, 1) fixed for a place's 0.1° cell, a day and a purpose. */
function noise(latitude: number, longitude: number, day: number, purpose: string): number {
  const cell = `${Math.round(latitude * 10)}:${Math.round(longitude * 10)}:${day}:${purpose}`;
  return createHash('sha256').update(cell).digest().readUInt32BE(0) / 2 ** 32;
}

/** The day's value blended into the next day's across the hours (smoothstep), so nothing jumps at midnight. */
function smoothNoise(latitude: number, longitude: number, time: number, purpose: string): number {
  const day = Math.floor(time / DAY_MS);
  const t = (time - day * DAY_MS) / DAY_MS;
  const blend = t * t * (3 - 2 * t);
  return noise(latitude, longitude, day, purpose) * (1 - blend) + noise(latitude, longitude, day + 1, purpose) * blend;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export function modelConditions(latitude: number, longitude: number, time: number, language: string): WeatherConditionsBody {
  const date = new Date(time);
  const dayOfYear = (time - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS;
  const warmestDay = latitude >= 0 ? 200 : 19;
  const season = Math.cos((2 * Math.PI * (dayOfYear - warmestDay)) / 365.25);
  const solarHour = (((date.getUTCHours() + date.getUTCMinutes() / 60 + longitude / 15) % 24) + 24) % 24;
  const daily = Math.cos((2 * Math.PI * (solarHour - 15)) / 24);
  const cloudCover = clamp(smoothNoise(latitude, longitude, time, 'cloud') * 1.1 - 0.05, 0, 1);
  const temperature =
    byLatitude(ANNUAL_MEAN, latitude) +
    byLatitude(SEASONAL_SWING, latitude) * season +
    4 * (1 - 0.5 * cloudCover) * daily +
    (smoothNoise(latitude, longitude, time, 'warmth') - 0.5) * 4;
  const precipitation = cloudCover > 0.75 ? (cloudCover - 0.75) * 8 : 0;
  const windSpeed = 1 + 7 * smoothNoise(latitude, longitude, time, 'wind') ** 2;
  const humidity = clamp(0.5 + 0.4 * cloudCover - 0.1 * daily, 0.15, 1);
  const apparent = temperature - (temperature < 10 ? 0.7 * windSpeed : 0) + (temperature > 26 ? (humidity - 0.4) * 8 : 0);
  const state = stateOf({ cloudCover, precipitation, temperature, humidity, windSpeed, thunder: false });
  return {
    time: new Date(time).toISOString(),
    state,
    description: describeState(state, language),
    temperature: round(temperature),
    apparentTemperature: round(apparent),
    humidity: round(humidity, 2),
    pressure: round(1013 - 25 * (cloudCover - 0.5)),
    cloudCover: round(cloudCover, 2),
    precipitation: round(precipitation),
    windSpeed: round(windSpeed),
    windDirection: Math.round(smoothNoise(latitude, longitude, time, 'direction') * 360) % 360,
  };
}
