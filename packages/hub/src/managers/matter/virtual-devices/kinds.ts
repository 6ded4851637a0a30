/**
 * The kinds of virtual Matter device `device.ts` runs, made with matter.js's device side: each a device type of the
 * Matter device library with the cluster features it needs, its starting state, the attributes whose changes it
 * prints (as `{"event": <name>, "value": …}`) and the commands it takes on stdin as its buttons and sensors would.
 */
import type { Endpoint, ServerNode } from '@matter/main';
import { ColorControlServer } from '@matter/main/behaviors/color-control';
import { DoorLockServer } from '@matter/main/behaviors/door-lock';
import { ElectricalEnergyMeasurementServer } from '@matter/main/behaviors/electrical-energy-measurement';
import { ElectricalPowerMeasurementServer } from '@matter/main/behaviors/electrical-power-measurement';
import { OccupancySensingServer } from '@matter/main/behaviors/occupancy-sensing';
import { ThermostatServer } from '@matter/main/behaviors/thermostat';
import { WindowCoveringServer } from '@matter/main/behaviors/window-covering';
import { ColorTemperatureLightDevice } from '@matter/main/devices/color-temperature-light';
import { ContactSensorDevice } from '@matter/main/devices/contact-sensor';
import { DimmableLightDevice } from '@matter/main/devices/dimmable-light';
import { DoorLockDevice } from '@matter/main/devices/door-lock';
import { ExtendedColorLightDevice } from '@matter/main/devices/extended-color-light';
import { HumiditySensorDevice } from '@matter/main/devices/humidity-sensor';
import { LightSensorDevice } from '@matter/main/devices/light-sensor';
import { OccupancySensorDevice } from '@matter/main/devices/occupancy-sensor';
import { OnOffPlugInUnitDevice } from '@matter/main/devices/on-off-plug-in-unit';
import { TemperatureSensorDevice } from '@matter/main/devices/temperature-sensor';
import { ThermostatDevice } from '@matter/main/devices/thermostat';
import { WindowCoveringDevice } from '@matter/main/devices/window-covering';

/** An attribute a kind prints when it changes: `[behavior id, attribute]`. */
type Followed = readonly [behavior: string, attribute: string];

export interface VirtualKind {
  /** The Matter device type it advertises while it waits to be commissioned. */
  readonly deviceType: number;
  readonly product: string;
  readonly productId: number;
  /** Adds the device's endpoint, in its starting state, to its node. */
  add(node: ServerNode, id: string): Promise<Endpoint>;
  /** Event name → the attribute it reports. */
  readonly follows: Readonly<Record<string, Followed>>;
}

const ON_OFF: Record<string, Followed> = { onoff: ['onOff', 'onOff'] };
const LEVEL: Record<string, Followed> = { ...ON_OFF, level: ['levelControl', 'currentLevel'] };

/** An accuracy range that says "measured, to within ±1 unit, over everything a home has". */
const accuracy = (measurementType: number, min: number, max: number) => ({
  measurementType,
  measured: true,
  minMeasuredValue: min,
  maxMeasuredValue: max,
  accuracyRanges: [{ rangeMin: min, rangeMax: max, fixedMax: 1000 }],
});
/** Matter's MeasurementType ids: active power (mW) and electrical energy (mWh). */
const ACTIVE_POWER = 2;
const ELECTRICAL_ENERGY = 14;

export const KINDS = {
  plug: {
    deviceType: OnOffPlugInUnitDevice.deviceType,
    product: 'Virtual plug',
    productId: 0x8001,
    add: (node, id) => node.add(OnOffPlugInUnitDevice, { id }),
    follows: ON_OFF,
  },
  'dimmable-light': {
    deviceType: DimmableLightDevice.deviceType,
    product: 'Virtual dimmable light',
    productId: 0x8002,
    add: (node, id) => node.add(DimmableLightDevice, { id, levelControl: { currentLevel: 254 } }),
    follows: LEVEL,
  },
  'contact-sensor': {
    deviceType: ContactSensorDevice.deviceType,
    product: 'Virtual contact sensor',
    productId: 0x8003,
    add: (node, id) => node.add(ContactSensorDevice, { id, booleanState: { stateValue: true } }),
    follows: { contact: ['booleanState', 'stateValue'] },
  },
  'temperature-sensor': {
    deviceType: TemperatureSensorDevice.deviceType,
    product: 'Virtual temperature sensor',
    productId: 0x8004,
    add: (node, id) => node.add(TemperatureSensorDevice, { id, temperatureMeasurement: { measuredValue: 2000 } }),
    follows: { temperature: ['temperatureMeasurement', 'measuredValue'] },
  },
  'color-temperature-light': {
    deviceType: ColorTemperatureLightDevice.deviceType,
    product: 'Virtual white-spectrum light',
    productId: 0x8005,
    add: (node, id) =>
      node.add(ColorTemperatureLightDevice, {
        id,
        levelControl: { currentLevel: 254 },
        colorControl: {
          colorMode: 2,
          enhancedColorMode: 2,
          colorTemperatureMireds: 370,
          colorTempPhysicalMinMireds: 153,
          colorTempPhysicalMaxMireds: 500,
          coupleColorTempToLevelMinMireds: 153,
          startUpColorTemperatureMireds: null,
        },
      }),
    follows: { ...LEVEL, mireds: ['colorControl', 'colorTemperatureMireds'] },
  },
  'extended-color-light': {
    deviceType: ExtendedColorLightDevice.deviceType,
    product: 'Virtual colour light',
    productId: 0x8006,
    add: (node, id) =>
      node.add(ExtendedColorLightDevice.with(ColorControlServer.with('HueSaturation', 'Xy', 'ColorTemperature')), {
        id,
        levelControl: { currentLevel: 254 },
        colorControl: {
          colorMode: 0,
          enhancedColorMode: 0,
          currentHue: 0,
          currentSaturation: 254,
          colorTemperatureMireds: 370,
          colorTempPhysicalMinMireds: 153,
          colorTempPhysicalMaxMireds: 500,
          coupleColorTempToLevelMinMireds: 153,
          startUpColorTemperatureMireds: null,
        },
      }),
    follows: {
      ...LEVEL,
      hue: ['colorControl', 'currentHue'],
      saturation: ['colorControl', 'currentSaturation'],
      mireds: ['colorControl', 'colorTemperatureMireds'],
      colorMode: ['colorControl', 'colorMode'],
    },
  },
  'power-plug': {
    deviceType: OnOffPlugInUnitDevice.deviceType,
    product: 'Virtual energy plug',
    productId: 0x8007,
    add: (node, id) =>
      node.add(
        OnOffPlugInUnitDevice.with(
          ElectricalPowerMeasurementServer.with('AlternatingCurrent'),
          ElectricalEnergyMeasurementServer.with('ImportedEnergy', 'CumulativeEnergy'),
        ),
        {
          id,
          electricalPowerMeasurement: {
            powerMode: 2,
            numberOfMeasurementTypes: 1,
            accuracy: [accuracy(ACTIVE_POWER, -10_000_000, 10_000_000)],
            activePower: 0,
          },
          electricalEnergyMeasurement: {
            accuracy: accuracy(ELECTRICAL_ENERGY, 0, 1_000_000_000_000),
            cumulativeEnergyImported: { energy: 0 },
          },
        },
      ),
    follows: {
      ...ON_OFF,
      power: ['electricalPowerMeasurement', 'activePower'],
      energy: ['electricalEnergyMeasurement', 'cumulativeEnergyImported'],
    },
  },
  thermostat: {
    deviceType: ThermostatDevice.deviceType,
    product: 'Virtual thermostat',
    productId: 0x8008,
    add: (node, id) =>
      node.add(ThermostatDevice.with(ThermostatServer.with('Heating', 'Cooling')), {
        id,
        thermostat: {
          localTemperature: 1950,
          occupiedHeatingSetpoint: 2000,
          occupiedCoolingSetpoint: 2600,
          // Cooling and heating, currently heating.
          controlSequenceOfOperation: 4,
          systemMode: 4,
        },
      }),
    follows: {
      temperature: ['thermostat', 'localTemperature'],
      heatingSetpoint: ['thermostat', 'occupiedHeatingSetpoint'],
      coolingSetpoint: ['thermostat', 'occupiedCoolingSetpoint'],
      systemMode: ['thermostat', 'systemMode'],
    },
  },
  'occupancy-sensor': {
    deviceType: OccupancySensorDevice.deviceType,
    product: 'Virtual motion sensor',
    productId: 0x8009,
    add: (node, id) =>
      node.add(OccupancySensorDevice.with(OccupancySensingServer.with('PassiveInfrared')), {
        id,
        occupancySensing: { occupancy: { occupied: false }, occupancySensorType: 0, occupancySensorTypeBitmap: { pir: true } },
      }),
    follows: { occupancy: ['occupancySensing', 'occupancy'] },
  },
  'humidity-sensor': {
    deviceType: HumiditySensorDevice.deviceType,
    product: 'Virtual humidity sensor',
    productId: 0x800a,
    add: (node, id) => node.add(HumiditySensorDevice, { id, relativeHumidityMeasurement: { measuredValue: 4500 } }),
    follows: { humidity: ['relativeHumidityMeasurement', 'measuredValue'] },
  },
  'light-sensor': {
    deviceType: LightSensorDevice.deviceType,
    product: 'Virtual light sensor',
    productId: 0x800b,
    // 30,001 is 10,000 × log10(1000 lx) + 1.
    add: (node, id) => node.add(LightSensorDevice, { id, illuminanceMeasurement: { measuredValue: 30_001 } }),
    follows: { illuminance: ['illuminanceMeasurement', 'measuredValue'] },
  },
  'window-covering': {
    deviceType: WindowCoveringDevice.deviceType,
    product: 'Virtual roller blind',
    productId: 0x800c,
    add: (node, id) =>
      node.add(WindowCoveringDevice.with(WindowCoveringServer.with('Lift', 'PositionAwareLift')), {
        id,
        windowCovering: {
          type: 0,
          endProductType: 0,
          currentPositionLiftPercent100ths: 0,
          targetPositionLiftPercent100ths: 0,
          configStatus: { operational: true, liftPositionAware: true },
        },
      }),
    follows: { lift: ['windowCovering', 'currentPositionLiftPercent100ths'] },
  },
  'door-lock': {
    deviceType: DoorLockDevice.deviceType,
    product: 'Virtual door lock',
    productId: 0x800d,
    add: (node, id) =>
      node.add(DoorLockDevice.with(DoorLockServer), {
        id,
        doorLock: {
          lockState: 1,
          lockType: 0,
          actuatorEnabled: true,
          operatingMode: 0,
          // matter.js validates these two on a lock without PIN credentials too, though its types leave them out.
          ...({ wrongCodeEntryLimit: 5, userCodeTemporaryDisableTime: 60 } as object),
        },
      }),
    follows: { lockState: ['doorLock', 'lockState'] },
  },
} satisfies Record<string, VirtualKind>;

export type VirtualDeviceKind = keyof typeof KINDS;

export const isVirtualDeviceKind = (kind: string): kind is VirtualDeviceKind => Object.hasOwn(KINDS, kind);
