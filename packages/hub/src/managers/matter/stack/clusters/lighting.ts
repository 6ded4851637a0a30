import { ColorControlClient } from '@matter/main/behaviors/color-control';
import { LevelControlClient } from '@matter/main/behaviors/level-control';
import { OnOffClient } from '@matter/main/behaviors/on-off';
import {
  type ClusterCapability,
  type ClusterState,
  EXECUTE_IF_OFF,
  featuresOf,
  NO_OPTIONS,
  numberOrNull,
  rounded,
} from './cluster-capability';

/** Matter's level range of a dimmable light: 1 (minimum) … 254 (maximum); 0 and 255 are not levels. */
const LEVEL_MIN = 1;
const LEVEL_MAX = 254;

export const levelToDim = (level: number) => (level - LEVEL_MIN) / (LEVEL_MAX - LEVEL_MIN);
export const dimToLevel = (dim: number) => Math.round(LEVEL_MIN + Math.min(1, Math.max(0, dim)) * (LEVEL_MAX - LEVEL_MIN));

/** Hue and saturation run 0 … 254 in Matter; the ecosystem's light_hue and light_saturation 0 … 1. */
const COLOR_MAX = 254;
const toUnit = (value: unknown) => {
  const n = numberOrNull(value);
  return n === null ? null : rounded(n / COLOR_MAX, 3);
};
const fromUnit = (value: unknown) => Math.round(Math.min(1, Math.max(0, Number(value))) * COLOR_MAX);

/**
 * The light's colour temperature range in mireds (a light without physical limits: the whole range Matter allows).
 * More mireds is warmer; the ecosystem's light_temperature is 0 for the coldest white and 1 for the warmest.
 */
function miredRange(state: ClusterState): { min: number; max: number } {
  const min = numberOrNull(state.colorTempPhysicalMinMireds) ?? 1;
  const max = numberOrNull(state.colorTempPhysicalMaxMireds) ?? 65279;
  return max > min ? { min, max } : { min: 1, max: 65279 };
}
const miredsOf = (temperature: unknown, state: ClusterState) => {
  const { min, max } = miredRange(state);
  return Math.round(min + Math.min(1, Math.max(0, Number(temperature))) * (max - min));
};

/** Color Control's ColorMode: 0 hue and saturation, 1 x/y, 2 colour temperature. */
const COLOR_MODE_TEMPERATURE = 2;

const hasHueSaturation = (state: ClusterState) => featuresOf(state).hueSaturation === true;
const hasTemperature = (state: ClusterState) => featuresOf(state).colorTemperature === true;

const colorCommands = (endpoint: Parameters<NonNullable<ClusterCapability['write']>>[0]) =>
  endpoint.commandsOf(ColorControlClient);

export const LIGHTING: readonly ClusterCapability[] = [
  {
    capability: 'onoff',
    client: OnOffClient,
    attributes: ['onOff'],
    toCapability: (state) => state.onOff === true,
    write: async (endpoint, value) => {
      const commands = endpoint.commandsOf(OnOffClient);
      await (value === true ? commands.on() : commands.off());
    },
  },
  {
    capability: 'dim',
    client: LevelControlClient,
    attributes: ['currentLevel'],
    // A level the node does not know (null) leaves the capability without a value.
    toCapability: (state) => {
      const level = numberOrNull(state.currentLevel);
      return level === null ? null : rounded(levelToDim(level), 3);
    },
    // With On/Off: a light that is off ignores a plain MoveToLevel, and setting dim turns a light on in the ecosystem.
    write: async (endpoint, value) => {
      await endpoint
        .commandsOf(LevelControlClient)
        .moveToLevelWithOnOff({ level: dimToLevel(Number(value)), transitionTime: 0, ...NO_OPTIONS });
    },
  },
  {
    capability: 'light_hue',
    client: ColorControlClient,
    attributes: ['currentHue'],
    carriedBy: hasHueSaturation,
    toCapability: (state) => toUnit(state.currentHue),
    write: async (endpoint, value) => {
      // Direction 0: the shortest way round the colour wheel.
      await colorCommands(endpoint).moveToHue({ hue: fromUnit(value), direction: 0, transitionTime: 0, ...EXECUTE_IF_OFF });
    },
  },
  {
    capability: 'light_saturation',
    client: ColorControlClient,
    attributes: ['currentSaturation'],
    carriedBy: hasHueSaturation,
    toCapability: (state) => toUnit(state.currentSaturation),
    write: async (endpoint, value) => {
      await colorCommands(endpoint).moveToSaturation({ saturation: fromUnit(value), transitionTime: 0, ...EXECUTE_IF_OFF });
    },
  },
  {
    capability: 'light_temperature',
    client: ColorControlClient,
    attributes: ['colorTemperatureMireds', 'colorTempPhysicalMinMireds', 'colorTempPhysicalMaxMireds'],
    carriedBy: hasTemperature,
    toCapability: (state) => {
      const mireds = numberOrNull(state.colorTemperatureMireds);
      if (mireds === null) return null;
      const { min, max } = miredRange(state);
      return rounded(Math.min(1, Math.max(0, (mireds - min) / (max - min))), 3);
    },
    write: async (endpoint, value, state) => {
      await colorCommands(endpoint).moveToColorTemperature({
        colorTemperatureMireds: miredsOf(value, state),
        transitionTime: 0,
        ...EXECUTE_IF_OFF,
      });
    },
  },
  {
    // Only a light that has both a colour and a white temperature has a mode to switch between.
    capability: 'light_mode',
    client: ColorControlClient,
    attributes: ['colorMode'],
    carriedBy: (state) => hasHueSaturation(state) && hasTemperature(state),
    toCapability: (state) => {
      const mode = numberOrNull(state.colorMode);
      return mode === null ? null : mode === COLOR_MODE_TEMPERATURE ? 'temperature' : 'color';
    },
    // The mode follows the last colour command: switching sends the light's current colour or temperature again.
    write: async (endpoint, value, state) => {
      const commands = colorCommands(endpoint);
      if (value === 'temperature') {
        const mireds = numberOrNull(state.colorTemperatureMireds) ?? miredRange(state).min;
        await commands.moveToColorTemperature({ colorTemperatureMireds: mireds, transitionTime: 0, ...EXECUTE_IF_OFF });
      } else {
        await commands.moveToHueAndSaturation({
          hue: numberOrNull(state.currentHue) ?? 0,
          saturation: numberOrNull(state.currentSaturation) ?? 0,
          transitionTime: 0,
          ...EXECUTE_IF_OFF,
        });
      }
    },
  },
];
