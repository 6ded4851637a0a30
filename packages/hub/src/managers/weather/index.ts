import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { readOption } from '../options';

const CACHE_MS = 10 * 60 * 1000;

interface Cached {
  at: number;
  key: string;
  data: Record<string, unknown>;
}

/** Fetches the weather at the hub's location from the cloud's weather service, cached ten minutes per location. */
async function fetchWeather(context: HubContext, cache: { current: Cached | null }): Promise<Record<string, unknown>> {
  const location = readOption<{ latitude: number; longitude: number } | null>(context, 'geolocation', 'location', null);
  if (!location) throw new HearthError('unavailable', "The hub's location is not set (geolocation option location)");
  const cloud = context.config.cloudUrl;
  if (!cloud) throw new HearthError('unavailable', 'Weather needs the cloud, and this hub has no cloud configured');
  const language = readOption(context, 'i18n', 'language', context.config.language);
  const query = new URLSearchParams({
    latitude: String(location.latitude),
    longitude: String(location.longitude),
    homey: context.config.id,
    language,
  });
  const key = query.toString();
  if (cache.current && cache.current.key === key && Date.now() - cache.current.at < CACHE_MS) return cache.current.data;
  let response: Response;
  try {
    response = await fetch(`${cloud}/weather/weather?${key}`, { signal: AbortSignal.timeout(5000) });
  } catch {
    throw new HearthError('unavailable', 'The weather service could not be reached');
  }
  if (!response.ok) throw new HearthError('unavailable', `The weather service answered ${response.status}`);
  const data = (await response.json()) as Record<string, unknown>;
  cache.current = { at: Date.now(), key, data };
  context.settings.set('weather.lastFetched', new Date().toISOString());
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
          available: context.config.cloudUrl !== null && readOption(context, 'geolocation', 'location', null) !== null,
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
