import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState, OpenObject } from './options';

const op = hubManager('weather');

export const weatherOperations = {
  getState: declareState(op),
  getWeather: op({
    name: 'getWeather',
    method: 'GET',
    path: '/weather',
    scope: 'homey.geolocation.readonly',
    response: OpenObject,
    summary: "Current weather at the hub's location, from the cloud's weather service (cached ten minutes).",
  }),
  getWeatherHourly: op({
    name: 'getWeatherHourly',
    summary: "The hourly forecast at the hub's location: the next 24 hours, each with its time and temperature.",
    method: 'GET',
    path: '/forecast/hourly',
    scope: 'homey.geolocation.readonly',
    response: Type.Array(OpenObject),
  }),
} as const;
