import { cloudOperations, HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { CloudCallError } from '../../cloudlink/client';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { readOption } from '../options';

const CACHE_MS = 10 * 60 * 1000;

interface Cached {
  at: number;
  key: string;
  data: Record<string, unknown>;
}

/**
 * Fetches the weather at the hub's location from the cloud's weather service (`cloudOperations.weather.getWeather`),
 * kept ten minutes per location as the cloud keeps it.
 */
async function fetchWeather(context: HubContext, cache: { current: Cached | null }): Promise<Record<string, unknown>> {
  const location = readOption<{ latitude: number; longitude: number } | null>(context, 'geolocation', 'location', null);
  if (!location) throw new HearthError('unavailable', "The hub's location is not set (geolocation option location)");
  if (!context.cloud.url) throw new HearthError('unavailable', 'Weather needs the cloud, and this hub has no cloud configured');
  const args = {
    latitude: String(location.latitude),
    longitude: String(location.longitude),
    homey: context.config.id,
    language: readOption(context, 'i18n', 'language', context.config.language),
  };
  const key = JSON.stringify(args);
  const now = context.clock.now();
  if (cache.current && cache.current.key === key && now - cache.current.at < CACHE_MS) return cache.current.data;
  let data: Record<string, unknown>;
  try {
    data = (await context.cloud.call(cloudOperations.weather.getWeather, args, { timeoutMs: 5000 })) as Record<string, unknown>;
  } catch (error) {
    throw new HearthError(
      'unavailable',
      error instanceof CloudCallError
        ? `The weather service answered ${error.status}`
        : 'The weather service could not be reached',
    );
  }
  cache.current = { at: now, key, data };
  context.settings.set('weather.lastFetched', new Date(now).toISOString());
  return data;
}

/** Weather at the home's location (the cloud's weather service does the lookup). */
export const weatherManager: HubManager = {
  name: 'weather',
  create: (context) => {
    const cache: { current: Cached | null } = { current: null };
    return {
      implementations: implement<typeof hubOperations.weather, HubPrincipal>(hubOperations.weather, {
        getState: () => ({
          available: context.cloud.url !== null && readOption(context, 'geolocation', 'location', null) !== null,
          lastFetched: context.settings.get<string | null>('weather.lastFetched', null),
        }),
        getWeather: async () => {
          const { hourly: _hourly, ...current } = await fetchWeather(context, cache);
          return current;
        },
        getWeatherHourly: async () => {
          const data = await fetchWeather(context, cache);
          return Array.isArray(data.hourly) ? (data.hourly as Record<string, unknown>[]) : [];
        },
      }),
    };
  },
};
