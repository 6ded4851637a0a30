import { describe, expect, it } from 'vitest';
import { type Capability, type Device, formatValue, readouts } from './capabilities';

/** A capability as the hub's catalogue answers it in a device's capabilitiesObj. */
const capability = (fields: Partial<Capability> & { id: string }): Capability =>
  ({ type: 'number', title: fields.id, getable: true, setable: false, value: null, ...fields }) as Capability;

describe('capability values as people read them', () => {
  it('reads shares kept as fractions as percentages, and percentages as they are', () => {
    expect(formatValue(capability({ id: 'fan_speed', units: '%', min: 0, max: 1, value: 0.4 }))).toBe('40 %');
    expect(formatValue(capability({ id: 'valve_position', units: '%', min: 0, max: 1, value: 1 }))).toBe('100 %');
    expect(formatValue(capability({ id: 'dim', units: '%', min: 0, max: 1, value: 0.25 }))).toBe('25 %');
    expect(formatValue(capability({ id: 'measure_battery', units: '%', min: 0, max: 100, value: 87 }))).toBe('87 %');
    expect(formatValue(capability({ id: 'measure_humidity', units: '%', value: 55.4 }))).toBe('55 %');
  });

  it('shows units and decimals of capabilities the catalogue took from the ecosystem, and unknown values as a dash', () => {
    expect(formatValue(capability({ id: 'measure_pm25', units: 'μg/m³', decimals: 2, value: 12.5 }))).toBe('12.5 μg/m³');
    expect(formatValue(capability({ id: 'meter_gas', units: 'm³', decimals: 3, value: 1234.5678 }))).toBe('1,234.568 m³');
    expect(formatValue(capability({ id: 'measure_co', units: 'ppm', value: null }))).toBe('—');
    expect(formatValue(capability({ id: 'alarm_co', type: 'boolean', value: true }))).toBe('Alarm');
  });
});

describe('enum values and dim levels', () => {
  const mode = (value: string) =>
    capability({
      id: 'thermostat_mode',
      type: 'enum',
      setable: true,
      value,
      values: [
        { id: 'auto', title: 'Automatic' },
        { id: 'heat', title: { en: 'Heat', nl: 'Verwarmen' } },
      ],
    });

  it('shows an enum value by its title (the English one of titles per language), an unknown one as stored', () => {
    expect(formatValue(mode('auto'))).toBe('Automatic');
    expect(formatValue(mode('heat'))).toBe('Heat');
    expect(formatValue(mode('eco'))).toBe('eco');
  });

  it('puts a light’s dim level among a tile’s read-outs, after its sensors', () => {
    const device = {
      capabilitiesObj: {
        onoff: capability({ id: 'onoff', type: 'boolean', setable: true, value: true }),
        dim: capability({ id: 'dim', units: '%', min: 0, max: 1, setable: true, value: 0.6 }),
        measure_power: capability({ id: 'measure_power', units: 'W', value: 7 }),
      },
    } as unknown as Device;
    expect(readouts(device).map((cap) => `${cap.id} ${formatValue(cap)}`)).toEqual(['measure_power 7 W', 'dim 60 %']);
  });
});
