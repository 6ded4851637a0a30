import { BooleanStateClient } from '@matter/main/behaviors/boolean-state';
import { ElectricalEnergyMeasurementClient } from '@matter/main/behaviors/electrical-energy-measurement';
import { ElectricalPowerMeasurementClient } from '@matter/main/behaviors/electrical-power-measurement';
import { IlluminanceMeasurementClient } from '@matter/main/behaviors/illuminance-measurement';
import { OccupancySensingClient } from '@matter/main/behaviors/occupancy-sensing';
import { RelativeHumidityMeasurementClient } from '@matter/main/behaviors/relative-humidity-measurement';
import { TemperatureMeasurementClient } from '@matter/main/behaviors/temperature-measurement';
import { type ClusterCapability, numberOrNull, rounded } from './cluster-capability';

/** A measurement in hundredths (0.01 °C, 0.01 %): null is "unknown". */
const hundredths = (value: unknown) => {
  const n = numberOrNull(value);
  return n === null ? null : n / 100;
};

/** Illuminance is 10,000 × log10(lux) + 1 in Matter; 0 means too dark to measure. */
export const luxOf = (measured: number) => (measured === 0 ? 0 : rounded(10 ** ((measured - 1) / 10_000), 2));

export const SENSORS: readonly ClusterCapability[] = [
  {
    capability: 'alarm_contact',
    client: BooleanStateClient,
    attributes: ['stateValue'],
    // The Contact Sensor device type: StateValue true is "contact" (closed); the capability alarms when open.
    toCapability: (state) => state.stateValue !== true,
  },
  {
    capability: 'alarm_motion',
    client: OccupancySensingClient,
    attributes: ['occupancy'],
    toCapability: (state) => (state.occupancy as { occupied?: boolean } | undefined)?.occupied === true,
  },
  {
    capability: 'measure_temperature',
    client: TemperatureMeasurementClient,
    attributes: ['measuredValue'],
    toCapability: (state) => hundredths(state.measuredValue),
  },
  {
    capability: 'measure_humidity',
    client: RelativeHumidityMeasurementClient,
    attributes: ['measuredValue'],
    toCapability: (state) => hundredths(state.measuredValue),
  },
  {
    capability: 'measure_luminance',
    client: IlluminanceMeasurementClient,
    attributes: ['measuredValue'],
    toCapability: (state) => {
      const measured = numberOrNull(state.measuredValue);
      return measured === null ? null : luxOf(measured);
    },
  },
  {
    // Active power in mW (negative when the load feeds back).
    capability: 'measure_power',
    client: ElectricalPowerMeasurementClient,
    attributes: ['activePower'],
    toCapability: (state) => {
      const milliwatts = numberOrNull(state.activePower);
      return milliwatts === null ? null : rounded(milliwatts / 1000, 2);
    },
  },
  {
    // The energy imported since the meter began, in mWh.
    capability: 'meter_power',
    client: ElectricalEnergyMeasurementClient,
    attributes: ['cumulativeEnergyImported'],
    toCapability: (state) => {
      const energy = (state.cumulativeEnergyImported as { energy?: number | bigint } | null | undefined)?.energy;
      return energy === undefined ? null : rounded(Number(energy) / 1_000_000, 3);
    },
  },
];
