import { type Static, Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('infrared', '/infrared');

/** The kinds of device the database holds codes for. */
export const InfraredType = Type.Enum(['tv', 'audio', 'airconditioning', 'projector', 'settopbox', 'other']);
export type InfraredTypeValue = Static<typeof InfraredType>;

const Id = Type.String({ pattern: '^[a-z0-9-]{1,64}$' });

/** Where the codes come from and under which licence, recorded beside the data. */
export const InfraredSource = Type.Object({
  name: Type.String(),
  licence: Type.String(),
  note: Type.String(),
});

export const InfraredBrand = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** The types of device of the brand the database has. */
  types: Type.Array(InfraredType),
  devices: Type.Integer(),
});

const summaryFields = {
  id: Type.String(),
  name: Type.String(),
  brand: Type.Object({ id: Type.String(), name: Type.String() }),
  type: InfraredType,
  /** The IR protocol most of its codes use (`NEC1`, `RC5`, `Sony12`), `raw` when its codes are all captures. */
  protocol: Type.String(),
};

/** A device as lists show it: no codes. */
export const InfraredDeviceSummary = Type.Object(summaryFields);

/**
 * One button (or, for an air conditioner, one whole state such as `cool/auto/24`) of a device: its code in Pronto
 * hex, as the hub's `rf` manager sends it (`txInfraredProntohex`). A protocol code's Pronto is made from its numbers
 * with the protocol's published timings; a captured (raw) code has no numbers and is served as captured.
 */
export const InfraredCode = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** The code's protocol (`NEC1`, `RC5`, `Sony12`…), `null` for a captured code. */
  protocol: Type.Union([Type.String(), Type.Null()]),
  /** The protocol's device (address), subdevice and function (command) numbers; `null` where it has none. */
  device: Type.Union([Type.Integer(), Type.Null()]),
  subdevice: Type.Union([Type.Integer(), Type.Null()]),
  function: Type.Union([Type.Integer(), Type.Null()]),
  /** Extra transmissions the source asks for (usually 0). */
  repeat: Type.Integer(),
  pronto: Type.String(),
});

export const InfraredDevice = Type.Object({
  ...summaryFields,
  /** The device (address) and subdevice numbers all its protocol codes share; `null` when they differ or it has none. */
  device: Type.Union([Type.Integer(), Type.Null()]),
  subdevice: Type.Union([Type.Integer(), Type.Null()]),
  codes: Type.Array(InfraredCode),
  source: InfraredSource,
});
export type InfraredDeviceBody = Static<typeof InfraredDevice>;

export const infraredOperations = {
  getBrands: op({
    name: 'getBrands',
    method: 'GET',
    path: '/brand',
    scope: null,
    auth: false,
    query: Type.Object({ type: Type.Optional(InfraredType) }),
    response: Type.Array(InfraredBrand),
    summary: 'The brands the infrared database has devices of (of one type when `type` is given), by name.',
  }),
  getTypes: op({
    name: 'getTypes',
    method: 'GET',
    path: '/type',
    scope: null,
    auth: false,
    query: Type.Object({ brand: Type.Optional(Id) }),
    response: Type.Array(Type.Object({ id: InfraredType, devices: Type.Integer() })),
    summary: 'The types of device the database has (of one brand when `brand` is given), with how many devices each.',
  }),
  searchDevices: op({
    name: 'searchDevices',
    method: 'GET',
    path: '/device/search',
    scope: null,
    auth: false,
    query: Type.Object({ query: Type.String({ minLength: 1, maxLength: 100 }) }),
    response: Type.Array(InfraredDeviceSummary),
    errors: ['missing_parameter', 'invalid_parameter'],
    summary:
      'Devices whose brand or name match every word of `query`, best first: exact words, then prefixes, then words with one typo (from four letters on), as the app search matches.',
  }),
  getDevices: op({
    name: 'getDevices',
    method: 'GET',
    path: '/device',
    scope: null,
    auth: false,
    query: Type.Object({
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      type: Type.Optional(InfraredType),
      brand: Type.Optional(Id),
    }),
    response: Type.Array(InfraredDeviceSummary),
    summary: 'Devices of a brand and/or a type, or whose name contains `name` (case-insensitive), by brand and name.',
  }),
  getDevice: op({
    name: 'getDevice',
    method: 'GET',
    path: '/device/:deviceId',
    scope: null,
    auth: false,
    params: Type.Object({ deviceId: Id }),
    query: Type.Object({ secret: Type.String({ minLength: 1, maxLength: 4000 }) }),
    response: InfraredDevice,
    errors: ['forbidden', 'not_found', 'missing_parameter'],
    summary: 'One device with every code in Pronto hex, for a hub to send.',
    description: '`secret` is the hub’s secret (`hubSecret` of `@hearth/contract/hub-secret`): codes are for hubs.',
  }),
} as const;
