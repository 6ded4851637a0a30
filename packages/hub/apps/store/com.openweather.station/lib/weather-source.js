/**
 * Where the station's readings come from: the hub's weather service when it answers, otherwise a stand-in.
 *
 * - `HubWeatherService` reads `GET /api/manager/weather/weather` through `this.homey.api` (the app's
 *   `homey:manager:api` permission). The hub asks the cloud's weather service for its location, cached ten minutes.
 * - `StandInWeatherModel` IS A STAND-IN, NOT WEATHER. When the hub cannot answer (no location set, no cloud, the
 *   cloud unreachable), the station computes plausible readings from the hub's location (`this.homey.geolocation`)
 *   and the time: the sun's elevation for daylight, a seasonal and daily rhythm for temperature and humidity. It is
 *   deterministic (the same place and time give the same readings). Readings from it carry the source
 *   `stand-in model`, and the device shows a warning saying so.
 * The cloud's own answer says where it comes from (`source`): a forecast provider, or the cloud's model of a
 * typical day when the cloud has no provider (`source.model`); the station passes that on.
 */

const STAND_IN = 'stand-in model';
const DAY_MS = 86_400_000;
const rad = (degrees) => (degrees * Math.PI) / 180;
const clamp = (value, min, max) => Math.min(max, Math.max(min, value));

class HubWeatherService {
  constructor(homey) {
    this.weather = homey.api.getApi('homey:manager:weather');
  }

  /** The hub's current weather as readings; throws when the hub (or the cloud behind it) has none. */
  async read() {
    // Asked first, so a hub without a location or a cloud is not asked for weather it cannot have.
    const state = await this.weather.get('/state');
    if (!state?.available)
      throw new Error("The hub's weather service is not available (it needs the home's location and a cloud)");
    const answer = await this.weather.get('/weather');
    if (!answer || typeof answer.temperature !== 'number') throw new Error('The weather service answered no temperature');
    const humidity = typeof answer.humidity === 'number' ? answer.humidity : null;
    return {
      temperature: answer.temperature,
      // Some services answer humidity as a fraction, others in percent.
      humidity: humidity === null ? null : humidity <= 1 ? humidity * 100 : humidity,
      luminance: typeof answer.luminance === 'number' ? answer.luminance : null,
      source: answer.source && typeof answer.source.name === 'string' ? answer.source.name : 'Hearth weather service',
      modelled: answer.source?.model === true,
    };
  }
}

class StandInWeatherModel {
  /** @param {{ latitude: number, longitude: number }} place */
  constructor(place) {
    this.place = place;
  }

  /** Readings for `at` (epoch ms). */
  read(at = Date.now()) {
    const { latitude, longitude } = this.place;
    const date = new Date(at);
    const dayOfYear = Math.floor((at - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
    // Local solar time from the longitude, and the sun's elevation from the declination (Cooper's formula).
    const solarHour = (date.getUTCHours() + date.getUTCMinutes() / 60 + longitude / 15 + 24) % 24;
    const declination = 23.44 * Math.sin(rad((360 * (284 + dayOfYear)) / 365));
    const sinElevation =
      Math.sin(rad(latitude)) * Math.sin(rad(declination)) +
      Math.cos(rad(latitude)) * Math.cos(rad(declination)) * Math.cos(rad(15 * (solarHour - 12)));
    // A cloud cover between 0.2 and 0.8 that changes from day to day.
    const cloud = 0.5 + 0.3 * Math.sin(dayOfYear * 2.3);
    const luminance = sinElevation > 0 ? Math.round(110_000 * sinElevation * (1 - 0.7 * cloud)) : 0;
    // Warmer towards the equator, a season that follows the hemisphere, the warmest hour mid-afternoon.
    const season = Math.sin(rad((360 * (dayOfYear - 105)) / 365)) * Math.sign(latitude || 1);
    const daily = Math.sin(rad(15 * (solarHour - 9)));
    const temperature = 28 - 0.45 * Math.abs(latitude) + 0.3 * Math.abs(latitude) * season + 4 * daily * (1 - 0.5 * cloud);
    const humidity = clamp(70 - 15 * daily + 20 * (cloud - 0.5), 20, 100);
    return {
      temperature: Number(temperature.toFixed(1)),
      humidity: Math.round(humidity),
      luminance,
      source: STAND_IN,
    };
  }
}

/** Reads the hub's weather, or the stand-in's when the hub has none; answers the readings and why, if a stand-in. */
async function readWeather(homey) {
  const standIn = new StandInWeatherModel({
    latitude: homey.geolocation.getLatitude(),
    longitude: homey.geolocation.getLongitude(),
  });
  try {
    const readings = await new HubWeatherService(homey).read();
    const modelled = standIn.read();
    // Daylight is the sun's geometry, not weather: the model fills it in when the service has none.
    return { ...readings, luminance: readings.luminance ?? modelled.luminance, fallbackReason: null };
  } catch (error) {
    return { ...standIn.read(), fallbackReason: error instanceof Error ? error.message : String(error) };
  }
}

module.exports = { HubWeatherService, StandInWeatherModel, readWeather, STAND_IN };
