import type { WEATHER_STATES } from '@hearth/contract';

export type WeatherState = (typeof WEATHER_STATES)[number];

/** The word for the weather, from what the sky does. */
export function stateOf(sky: {
  cloudCover: number;
  precipitation: number;
  temperature: number;
  humidity: number;
  windSpeed: number;
  thunder: boolean;
}): WeatherState {
  if (sky.thunder) return 'thunderstorm';
  if (sky.precipitation >= 0.1) {
    if (sky.temperature < 1) return 'snow';
    return sky.precipitation < 0.5 ? 'drizzle' : 'rain';
  }
  if (sky.humidity >= 0.97 && sky.windSpeed < 2) return 'fog';
  if (sky.cloudCover < 0.2) return 'clear';
  return sky.cloudCover < 0.7 ? 'partly-cloudy' : 'cloudy';
}

/** The states in words, per language; English for a language the cloud has no words for. */
const WORDS: Record<string, Record<WeatherState, string>> = {
  en: {
    clear: 'Clear',
    'partly-cloudy': 'Partly cloudy',
    cloudy: 'Cloudy',
    fog: 'Fog',
    drizzle: 'Drizzle',
    rain: 'Rain',
    snow: 'Snow',
    thunderstorm: 'Thunderstorm',
  },
  nl: {
    clear: 'Onbewolkt',
    'partly-cloudy': 'Half bewolkt',
    cloudy: 'Bewolkt',
    fog: 'Mist',
    drizzle: 'Motregen',
    rain: 'Regen',
    snow: 'Sneeuw',
    thunderstorm: 'Onweer',
  },
  de: {
    clear: 'Klar',
    'partly-cloudy': 'Teilweise bewölkt',
    cloudy: 'Bewölkt',
    fog: 'Nebel',
    drizzle: 'Nieselregen',
    rain: 'Regen',
    snow: 'Schnee',
    thunderstorm: 'Gewitter',
  },
  fr: {
    clear: 'Dégagé',
    'partly-cloudy': 'Partiellement nuageux',
    cloudy: 'Nuageux',
    fog: 'Brouillard',
    drizzle: 'Bruine',
    rain: 'Pluie',
    snow: 'Neige',
    thunderstorm: 'Orage',
  },
};

/** The language an answer uses: the asked one's base (`nl` of `nl-BE`) when the cloud has words for it. */
export function weatherLanguage(asked: string | undefined): string {
  const base = (asked ?? 'en').slice(0, 2).toLowerCase();
  return base in WORDS ? base : 'en';
}

export function describeState(state: WeatherState, language: string): string {
  return (WORDS[language] ?? WORDS.en)[state] ?? state;
}
