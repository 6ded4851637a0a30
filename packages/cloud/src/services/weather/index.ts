import { cloudOperations, invalidParameter, type WeatherReportBody } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import type { CloudService } from '../service';
import { WeatherModel } from './model';
import { OpenMeteoProvider } from './open-meteo';
import type { WeatherProvider } from './provider';
import { weatherLanguage } from './states';

const weatherOps = cloudOperations.weather;
/** How long an answer is kept for a place. */
const CACHE_MS = 10 * 60_000;
/** A hub asks for its weather every ten minutes at most (it keeps answers as long); this leaves room for many. */
const PER_HUB = { name: 'weather-hub', quota: 120, windowSeconds: 3600 };

/** The provider the configuration names: the model by default, a forecast provider when told. */
export function weatherProvider(config: CloudContext['config']): WeatherProvider {
  return config.weather?.provider === 'open-meteo' ? new OpenMeteoProvider(config.weather.url) : new WeatherModel();
}

function degrees(text: string, field: 'latitude' | 'longitude', limit: number): number {
  const value = Number(text);
  if (!Number.isFinite(value) || Math.abs(value) > limit) throw invalidParameter(field, `Must be between -${limit} and ${limit}`);
  // Rounded to two decimals, about a kilometre: nearby hubs share an answer, and no exact position is kept.
  return Math.round(value * 100) / 100;
}

/** The weather service (`/weather`): the weather now and for the next day at a hub's place. */
export const weatherService: CloudService = {
  name: 'weather',
  create: (context) => ({
    implementations: () => {
      const { db } = context.database;
      const provider = weatherProvider(context.config);
      return implement<typeof weatherOps, CloudPrincipal>(weatherOps, {
        getWeather: async ({ query, request }) => {
          const latitude = degrees(query.latitude, 'latitude', 90);
          const longitude = degrees(query.longitude, 'longitude', 180);
          await context.rateLimiter.count(request, PER_HUB, query.homey);
          const language = weatherLanguage(query.language);
          const key = `${provider.source.id}:${latitude}:${longitude}:${language}`;
          const cached = await db
            .selectFrom('weather_cache')
            .select('data')
            .where('key', '=', key)
            .where('expires_at', '>', new Date(context.clock.now()))
            .executeTakeFirst();
          if (cached) return cached.data as WeatherReportBody;
          const { current, hourly } = await provider.weatherAt({
            latitude,
            longitude,
            at: context.clock.now(),
            hours: 24,
            language,
          });
          const report: WeatherReportBody = { ...current, source: provider.source, latitude, longitude, language, hourly };
          const data = JSON.stringify(report);
          const expires = new Date(context.clock.now() + CACHE_MS);
          await db.deleteFrom('weather_cache').where('expires_at', '<', new Date(context.clock.now())).execute();
          await db
            .insertInto('weather_cache')
            .values({ key, data, expires_at: expires })
            .onConflict((oc) => oc.column('key').doUpdateSet({ data, expires_at: expires }))
            .execute();
          return report;
        },
      });
    },
  }),
};
