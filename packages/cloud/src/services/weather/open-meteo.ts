import { HearthError, type WeatherConditionsBody } from '@hearth/contract';
import type { WeatherAt, WeatherProvider } from './provider';
import { describeState, stateOf, type WeatherState } from './states';

/** The variables asked for, current and hourly alike. */
const VARIABLES = [
  'temperature_2m',
  'apparent_temperature',
  'relative_humidity_2m',
  'pressure_msl',
  'cloud_cover',
  'precipitation',
  'wind_speed_10m',
  'wind_direction_10m',
  'weather_code',
] as const;
type Variable = (typeof VARIABLES)[number];

interface OpenMeteoAnswer {
  current?: Partial<Record<Variable | 'time', number | string>>;
  hourly?: Partial<Record<Variable | 'time', (number | string | null)[]>>;
}

/** WMO weather interpretation codes (as Open-Meteo answers them) to our states. */
function stateOfCode(code: number, sky: Parameters<typeof stateOf>[0]): WeatherState {
  if (code >= 95) return 'thunderstorm';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow';
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return 'rain';
  if (code >= 51 && code <= 57) return 'drizzle';
  if (code === 45 || code === 48) return 'fog';
  if (code === 0 || code === 1) return 'clear';
  if (code === 2) return 'partly-cloudy';
  if (code === 3) return 'cloudy';
  return stateOf(sky);
}

/**
 * Open-Meteo's forecast API (`/v1/forecast`, free, no key; https://open-meteo.com/en/docs), at `baseUrl`
 * (`HEARTH_WEATHER_URL`, `https://api.open-meteo.com` unless told). Asked in metres per second and GMT times.
 */
export class OpenMeteoProvider implements WeatherProvider {
  readonly source = {
    id: 'open-meteo',
    name: 'Open-Meteo',
    model: false,
    description: 'Forecast by Open-Meteo (open-meteo.com), from national weather services, CC BY 4.0.',
  };

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 5000,
  ) {}

  async weatherAt({ latitude, longitude, hours, language }: WeatherAt) {
    const query = new URLSearchParams({
      latitude: String(latitude),
      longitude: String(longitude),
      current: VARIABLES.join(','),
      hourly: VARIABLES.join(','),
      forecast_hours: String(hours + 1),
      wind_speed_unit: 'ms',
      timezone: 'GMT',
    });
    let answer: OpenMeteoAnswer;
    try {
      const response = await fetch(`${this.baseUrl.replace(/\/$/, '')}/v1/forecast?${query}`, {
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) throw new Error(`answered ${response.status}`);
      answer = (await response.json()) as OpenMeteoAnswer;
    } catch (error) {
      throw new HearthError('unavailable', `The weather provider could not answer (${(error as Error).message})`);
    }
    const current = answer.current;
    const hourly = answer.hourly;
    if (!current || !hourly?.time) throw new HearthError('unavailable', 'The weather provider answered without a forecast');
    const at = (values: Partial<Record<Variable | 'time', unknown>>) => conditions(values, language);
    const rows = hourly.time.map((_, i) =>
      Object.fromEntries(['time', ...VARIABLES].map((name) => [name, hourly[name as Variable]?.[i] ?? null])),
    );
    const now = Date.parse(`${String(current.time)}Z`);
    return {
      current: at(current),
      hourly: rows
        .map(at)
        .filter((row) => Date.parse(row.time) > now)
        .slice(0, hours),
    };
  }
}

function conditions(values: Partial<Record<Variable | 'time', unknown>>, language: string): WeatherConditionsBody {
  const number = (name: Variable, fallback = 0) => (typeof values[name] === 'number' ? (values[name] as number) : fallback);
  const temperature = number('temperature_2m');
  const sky = {
    cloudCover: number('cloud_cover') / 100,
    precipitation: number('precipitation'),
    temperature,
    humidity: number('relative_humidity_2m') / 100,
    windSpeed: number('wind_speed_10m'),
    thunder: false,
  };
  const state = stateOfCode(number('weather_code', -1), sky);
  return {
    // GMT times without a zone, as asked.
    time: new Date(`${String(values.time)}Z`).toISOString(),
    state,
    description: describeState(state, language),
    temperature,
    apparentTemperature: number('apparent_temperature', temperature),
    humidity: sky.humidity,
    pressure: number('pressure_msl', 1013),
    cloudCover: sky.cloudCover,
    precipitation: Math.max(0, sky.precipitation),
    windSpeed: Math.max(0, sky.windSpeed),
    windDirection: number('wind_direction_10m') % 360,
  };
}
