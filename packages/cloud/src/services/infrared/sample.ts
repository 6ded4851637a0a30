import type { InfraredTypeValue } from '@hearth/contract';
import type { Protocol } from './pronto';

/**
 * SAMPLE DATA, not a real IR database. The brands are made up and the device and function numbers are
 * illustrative, chosen for tests and demos: no real remote sends these. They stand in until an openly licensed IR
 * code database is brought in (none is published on npm, the only registry this project can reach); its source and
 * licence then go here, as this set's do.
 */
export const SAMPLE_SOURCE = {
  name: 'Hearth sample set (made-up brands, illustrative numbers)',
  licence: 'CC0-1.0',
  note: 'Sample data for tests and demos: not taken from any IR database, no real device answers these codes.',
} as const;

export interface SampleDevice {
  id: string;
  brand: string;
  name: string;
  type: InfraredTypeValue;
  protocol: Protocol;
  device: number;
  subdevice: number | null;
  /** Button id → the protocol's function number. */
  functions: Record<string, number>;
}

export const SAMPLE_BRANDS: Record<string, string> = {
  'sample-vision': 'Sample Vision',
  'sample-acoustics': 'Sample Acoustics',
  'sample-climate': 'Sample Climate',
  'sample-beam': 'Sample Beam',
  'sample-box': 'Sample Box',
};

const tv = { power: 8, volume_up: 2, volume_down: 3, mute: 9, channel_up: 0, channel_down: 1, input: 11 };
const audio = { power: 12, volume_up: 16, volume_down: 17, mute: 13, input: 56 };

export const SAMPLE_DEVICES: SampleDevice[] = [
  {
    id: 'sample-vision-lumo-40',
    brand: 'sample-vision',
    name: 'Lumo 40',
    type: 'tv',
    protocol: 'NEC1',
    device: 4,
    subdevice: null,
    functions: tv,
  },
  {
    id: 'sample-vision-lumo-55',
    brand: 'sample-vision',
    name: 'Lumo 55 Pro',
    type: 'tv',
    protocol: 'NEC1',
    device: 4,
    subdevice: 251,
    functions: tv,
  },
  {
    id: 'sample-acoustics-soundbar-s2',
    brand: 'sample-acoustics',
    name: 'Soundbar S2',
    type: 'audio',
    protocol: 'RC5',
    device: 16,
    subdevice: null,
    functions: audio,
  },
  {
    id: 'sample-acoustics-receiver-r7',
    brand: 'sample-acoustics',
    name: 'Receiver R7',
    type: 'audio',
    protocol: 'RC5',
    device: 17,
    subdevice: null,
    functions: audio,
  },
  {
    id: 'sample-climate-breeze-12',
    brand: 'sample-climate',
    name: 'Breeze 12 split unit',
    type: 'airconditioning',
    protocol: 'NEC1',
    device: 40,
    subdevice: null,
    functions: { power: 1, temperature_up: 2, temperature_down: 3, mode: 4, fan: 5 },
  },
  {
    id: 'sample-beam-cinema-hd',
    brand: 'sample-beam',
    name: 'Cinema HD projector',
    type: 'projector',
    protocol: 'SIRC12',
    device: 26,
    subdevice: null,
    functions: { power: 21, input: 37, menu: 96, volume_up: 18, volume_down: 19 },
  },
  {
    id: 'sample-box-tuner-t1',
    brand: 'sample-box',
    name: 'Tuner T1',
    type: 'settopbox',
    protocol: 'NEC1',
    device: 130,
    subdevice: null,
    functions: { power: 10, channel_up: 20, channel_down: 21, guide: 30, ok: 31 },
  },
];
