import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { InfraredDeviceBody, InfraredTypeValue } from '@hearth/contract';
import { isProtocolName, prontoHex } from './pronto';

/**
 * The infrared data file: 575 devices of 217 brands from openly licensed sources (SmartIR, its maintained fork,
 * ar_smart_ir: MIT; home-assistant-libs/infrared-protocols: MIT; Flipper-IRDB's CC0 part), made by
 * `scripts/build-infrared-data.mjs` from the prepared dataset; `INFRARED-LICENSES.md` holds the notices that travel
 * with it. One device a line; its codes gzipped JSON in base64.
 */
// Beside the code, so the bundle finds it in dist/ too (scripts/build.mjs copies it there).
export const DATA_FILE = join(import.meta.dirname, 'infrared-devices.ndjson');

export interface DataFileDevice {
  id: string;
  key: string;
  brand: { id: string; name: string };
  type: InfraredTypeValue;
  category: string;
  /** The model(s), `''` when the source names none. */
  name: string;
  licence: string;
  source: { repositories: string[]; commits: string[]; path: string };
  codes: string;
}

/** A code as the data file holds it: protocol numbers, or a captured signal's Pronto hex. */
export type PackedCode =
  | [key: string, name: string, repeat: number, protocol: string, device: number, subdevice: number | null, fn: number]
  | [key: string, name: string, repeat: number, pronto: string];

export function readDataFile(path = DATA_FILE) {
  const text = readFileSync(path, 'utf8');
  const devices = text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as DataFileDevice);
  return { version: createHash('sha256').update(text).digest('hex').slice(0, 16), devices };
}

export const unpackCodes = (codes: Uint8Array): PackedCode[] => JSON.parse(gunzipSync(codes).toString('utf8'));

const TYPE_NAMES: Record<InfraredTypeValue, string> = {
  tv: 'TV',
  audio: 'Audio',
  airconditioning: 'Air conditioner',
  projector: 'Projector',
  settopbox: 'Set-top box',
  other: 'Remote',
};

/** The name lists show: the model(s), or the type and the source's number when the source names no model. */
export const displayName = (device: DataFileDevice) =>
  device.name || `${TYPE_NAMES[device.type]} ${device.key.split('/').at(-1)?.replaceAll('_', ' ')}`;

/** Where a device's codes come from, as the contract's `source` says it. */
export const sourceOf = (device: DataFileDevice): InfraredDeviceBody['source'] => ({
  name: device.source.repositories.map((repository) => `github.com/${repository}`).join(', '),
  licence: device.licence,
  note: `${device.source.path} at ${device.source.commits.join(', ')}; notices in the cloud's INFRARED-LICENSES.md`,
});

/** The protocol most codes use (`raw` for captures only), and the device numbers when all protocol codes share them. */
export function summaryOfCodes(codes: PackedCode[]) {
  const counts = new Map<string, number>();
  const addresses = new Set<string>();
  for (const code of codes) {
    if (code.length === 7) {
      counts.set(code[3], (counts.get(code[3]) ?? 0) + 1);
      addresses.add(JSON.stringify([code[4], code[5]]));
    }
  }
  const protocol = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'raw';
  const [device, subdevice] =
    addresses.size === 1 ? (JSON.parse([...addresses][0] as string) as [number, number | null]) : [null, null];
  return { protocol, device, subdevice };
}

const title = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');

/** A device's codes as the contract serves them: protocol codes in Pronto made from their numbers, captures as they are. */
export function codesOf(packed: PackedCode[]): InfraredDeviceBody['codes'] {
  const seen = new Map<string, number>();
  return packed.map((code) => {
    const [key, name, repeat] = code;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const id = n === 1 ? key : `${key}-${n}`;
    const common = { id, name: name || title(key), repeat };
    if (code.length === 4) return { ...common, protocol: null, device: null, subdevice: null, function: null, pronto: code[3] };
    const [, , , protocol, device, subdevice, fn] = code;
    if (!isProtocolName(protocol)) throw new Error(`Infrared data file: unknown protocol ${protocol} in code ${key}`);
    return {
      ...common,
      protocol,
      device,
      subdevice,
      function: fn,
      pronto: prontoHex({ protocol, device, subdevice, function: fn }),
    };
  });
}
