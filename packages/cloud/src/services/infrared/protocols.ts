/**
 * The IR protocols the database's codes use, each as its published definition (IRP notation, quoted beside each
 * entry from IrpTransmogrifier's IrpProtocols.xml, GNU all-permissive; the table is in the dataset's SOURCE.md):
 * carrier, time unit, how a 0 and a 1 are sent, and the frame's fields. The table is data for two readers written
 * here: `render` (numbers → mark/space durations, for Pronto hex) and `decode` (durations → numbers), so a test can
 * check one against the other for every protocol.
 */

/** Protocol parameters: D device (address), S subdevice, F function (command), T toggle. */
export type Variable = 'D' | 'S' | 'F' | 'T';
export type Numbers = Record<Variable, number>;

/**
 * One item of a frame: a duration in units (positive a mark, negative a space), a duration in µs, `bits` of a
 * variable (from bit `from`, inverted when `invert`), a computed value (constants, checksums), or `extent`: a space
 * padding the frame to that many µs from its start.
 */
export type Item =
  | number
  | { us: number }
  | { of: Variable; bits: number; from?: number; invert?: boolean; coding?: [number[], number[]] }
  | { value: (n: Numbers) => number; bits: number }
  | { extent: number };

export interface ProtocolDefinition {
  irp: string;
  carrier: number;
  unit: number;
  msbFirst: boolean;
  /** The durations (in units) sending a 0 and a 1. */
  coding: [number[], number[]];
  /** The frames sent once, then those repeated while the button is held. */
  once: Item[][];
  repeat: Item[][];
  /** The largest value of each parameter; a parameter absent here the protocol does not have. */
  limits: Partial<Record<Variable, number>>;
  /** The subdevice when a code gives none. */
  defaultSubdevice?: (device: number) => number;
}

const pulseDistance: [number[], number[]] = [
  [1, -1],
  [1, -3],
];
const sony: [number[], number[]] = [
  [1, -1],
  [2, -1],
];
const necFrame = (lead: number, functionBits: Item[]): Item[] => [
  lead,
  -8,
  { of: 'D', bits: 8 },
  { of: 'S', bits: 8 },
  ...functionBits,
  1,
  { extent: 108_000 },
];
const necFunction: Item[] = [
  { of: 'F', bits: 8 },
  { of: 'F', bits: 8, invert: true },
];
const complementOfDevice = (device: number) => 255 - device;
const sonyFrame = (deviceBits: number, subdevice: boolean): Item[][] => [
  [
    4,
    -1,
    { of: 'F', bits: 7 },
    { of: 'D', bits: deviceBits },
    ...(subdevice ? [{ of: 'S', bits: 8 } as Item] : []),
    { extent: 45_000 },
  ],
];
const sharpFrame = (invert: boolean, tail: number): Item[] => [
  { of: 'D', bits: 5 },
  { of: 'F', bits: 8, invert },
  { value: () => tail, bits: 2 },
  1,
  { extent: 67_000 },
];

export const PROTOCOLS = {
  NEC1: {
    irp: '{38.4k,564}<1,-1|1,-3>(16,-8,D:8,S:8,F:8,~F:8,1,^108m,(16,-4,1,^108m)*) [S=255-D]',
    carrier: 38_400,
    unit: 564,
    msbFirst: false,
    coding: pulseDistance,
    once: [necFrame(16, necFunction)],
    repeat: [[16, -4, 1, { extent: 108_000 }]],
    limits: { D: 255, S: 255, F: 255 },
    defaultSubdevice: complementOfDevice,
  },
  'NEC1-f16': {
    irp: '{38.4k,564}<1,-1|1,-3>(16,-8,D:8,S:8,F:8,E:8,1,^108m,(16,-4,1,^108m)*) [function = F + 256·E]',
    carrier: 38_400,
    unit: 564,
    msbFirst: false,
    coding: pulseDistance,
    once: [necFrame(16, [{ of: 'F', bits: 16 }])],
    repeat: [[16, -4, 1, { extent: 108_000 }]],
    limits: { D: 255, S: 255, F: 65_535 },
    defaultSubdevice: complementOfDevice,
  },
  NECx2: {
    irp: '{38.4k,564}<1,-1|1,-3>(8,-8,D:8,S:8,F:8,~F:8,1,^108m)*',
    carrier: 38_400,
    unit: 564,
    msbFirst: false,
    coding: pulseDistance,
    once: [necFrame(8, necFunction)],
    repeat: [necFrame(8, necFunction)],
    limits: { D: 255, S: 255, F: 255 },
    defaultSubdevice: (device) => device,
  },
  Pioneer: {
    irp: '{40k,564}<1,-1|1,-3>(16,-8,D:8,S:8,F:8,~F:8,1,^108m)*',
    carrier: 40_000,
    unit: 564,
    msbFirst: false,
    coding: pulseDistance,
    once: [necFrame(16, necFunction)],
    repeat: [necFrame(16, necFunction)],
    limits: { D: 255, S: 255, F: 255 },
    defaultSubdevice: complementOfDevice,
  },
  RC5: {
    irp: '{36k,msb,889}<1,-1|-1,1>((1,~F:1:6,T:1,D:5,F:6,^114m)*,T=1-T) [F 64–127: RC5X]',
    carrier: 36_000,
    unit: 889,
    msbFirst: true,
    coding: [
      [1, -1],
      [-1, 1],
    ],
    once: [
      [
        -1,
        1,
        { of: 'F', bits: 1, from: 6, invert: true },
        { of: 'T', bits: 1 },
        { of: 'D', bits: 5 },
        { of: 'F', bits: 6 },
        { extent: 114_000 },
      ],
    ],
    repeat: [
      [
        -1,
        1,
        { of: 'F', bits: 1, from: 6, invert: true },
        { of: 'T', bits: 1 },
        { of: 'D', bits: 5 },
        { of: 'F', bits: 6 },
        { extent: 114_000 },
      ],
    ],
    limits: { D: 31, F: 127, T: 1 },
  },
  RC6: {
    irp: '{36k,444,msb}<-1,1|1,-1>((6,-2,1:1,0:3,<-2,2|2,-2>(T:1),D:8,F:8,^107m)*,T=1-T)',
    carrier: 36_000,
    unit: 444,
    msbFirst: true,
    coding: [
      [-1, 1],
      [1, -1],
    ],
    once: [rc6Frame()],
    repeat: [rc6Frame()],
    limits: { D: 255, F: 255, T: 1 },
  },
  Sony12: {
    irp: '{40k,600}<1,-1|2,-1>(4,-1,F:7,D:5,^45m)*',
    carrier: 40_000,
    unit: 600,
    msbFirst: false,
    coding: sony,
    once: sonyFrame(5, false),
    repeat: sonyFrame(5, false),
    limits: { D: 31, F: 127 },
  },
  Sony15: {
    irp: '{40k,600}<1,-1|2,-1>(4,-1,F:7,D:8,^45m)*',
    carrier: 40_000,
    unit: 600,
    msbFirst: false,
    coding: sony,
    once: sonyFrame(8, false),
    repeat: sonyFrame(8, false),
    limits: { D: 255, F: 127 },
  },
  Sony20: {
    irp: '{40k,600}<1,-1|2,-1>(4,-1,F:7,D:5,S:8,^45m)*',
    carrier: 40_000,
    unit: 600,
    msbFirst: false,
    coding: sony,
    once: sonyFrame(5, true),
    repeat: sonyFrame(5, true),
    limits: { D: 31, S: 255, F: 127 },
    defaultSubdevice: () => 0,
  },
  Panasonic: {
    irp: '{37k,432}<1,-1|1,-3>(8,-4,2:8,32:8,D:8,S:8,F:8,(D^S^F):8,1,-173)*',
    carrier: 37_000,
    unit: 432,
    msbFirst: false,
    coding: pulseDistance,
    once: [panasonicFrame()],
    repeat: [panasonicFrame()],
    limits: { D: 255, S: 255, F: 255 },
    defaultSubdevice: () => 0,
  },
  'Denon-K': {
    irp: '{37k,432}<1,-1|1,-3>(8,-4,84:8,50:8,0:4,D:4,S:4,F:12,((D*16)^S^(F*16)^(F:8:4)):8,1,-173)*',
    carrier: 37_000,
    unit: 432,
    msbFirst: false,
    coding: pulseDistance,
    once: [denonKFrame()],
    repeat: [denonKFrame()],
    limits: { D: 15, S: 15, F: 4095 },
    defaultSubdevice: () => 0,
  },
  Proton: {
    irp: '{38.5k,500}<1,-1|1,-3>(16,-8,D:8,1,-8,F:8,1,^63m)*',
    carrier: 38_500,
    unit: 500,
    msbFirst: false,
    coding: pulseDistance,
    once: [[16, -8, { of: 'D', bits: 8 }, 1, -8, { of: 'F', bits: 8 }, 1, { extent: 63_000 }]],
    repeat: [[16, -8, { of: 'D', bits: 8 }, 1, -8, { of: 'F', bits: 8 }, 1, { extent: 63_000 }]],
    limits: { D: 255, F: 255 },
  },
  Sharp: {
    irp: '{38k,264}<1,-3|1,-7>(D:5,F:8,1:2,1,^67m,(D:5,~F:8,2:2,1,^67m,D:5,F:8,1:2,1,^67m)*)',
    carrier: 38_000,
    unit: 264,
    msbFirst: false,
    coding: [
      [1, -3],
      [1, -7],
    ],
    once: [sharpFrame(false, 1)],
    repeat: [sharpFrame(true, 2), sharpFrame(false, 1)],
    limits: { D: 31, F: 255 },
  },
  Samsung36: {
    irp: '{37.9k,560,33%}<1,-1|1,-3>(4500u,-4500u,D:8,S:8,1,-9,E:4,F:8,~F:8,1,^108m)* [function = F + 256·E]',
    carrier: 37_900,
    unit: 560,
    msbFirst: false,
    coding: pulseDistance,
    once: [samsung36Frame()],
    repeat: [samsung36Frame()],
    limits: { D: 255, S: 255, F: 4095 },
    defaultSubdevice: () => 0,
  },
  JVC: {
    irp: '{37.9k,527,33%}<1,-1|1,-3>(16,-8,D:8,F:8,1,^59.08m,(D:8,F:8,1,^46.42m)*)',
    carrier: 37_900,
    unit: 527,
    msbFirst: false,
    coding: pulseDistance,
    once: [[16, -8, { of: 'D', bits: 8 }, { of: 'F', bits: 8 }, 1, { extent: 59_080 }]],
    repeat: [[{ of: 'D', bits: 8 }, { of: 'F', bits: 8 }, 1, { extent: 46_420 }]],
    limits: { D: 255, F: 255 },
  },
} satisfies Record<string, ProtocolDefinition>;

export type ProtocolName = keyof typeof PROTOCOLS;

function rc6Frame(): Item[] {
  return [
    6,
    -2,
    { value: () => 1, bits: 1 },
    { value: () => 0, bits: 3 },
    {
      of: 'T',
      bits: 1,
      coding: [
        [-2, 2],
        [2, -2],
      ],
    },
    { of: 'D', bits: 8 },
    { of: 'F', bits: 8 },
    { extent: 107_000 },
  ];
}

function panasonicFrame(): Item[] {
  return [
    8,
    -4,
    { value: () => 2, bits: 8 },
    { value: () => 32, bits: 8 },
    { of: 'D', bits: 8 },
    { of: 'S', bits: 8 },
    { of: 'F', bits: 8 },
    { value: (n) => n.D ^ n.S ^ n.F, bits: 8 },
    1,
    -173,
  ];
}

function denonKFrame(): Item[] {
  return [
    8,
    -4,
    { value: () => 84, bits: 8 },
    { value: () => 50, bits: 8 },
    { value: () => 0, bits: 4 },
    { of: 'D', bits: 4 },
    { of: 'S', bits: 4 },
    { of: 'F', bits: 12 },
    { value: (n) => (n.D * 16) ^ n.S ^ (n.F * 16) ^ ((n.F >> 4) & 0xff), bits: 8 },
    1,
    -173,
  ];
}

function samsung36Frame(): Item[] {
  return [
    { us: 4500 },
    { us: -4500 },
    { of: 'D', bits: 8 },
    { of: 'S', bits: 8 },
    1,
    -9,
    { of: 'F', bits: 4, from: 8 },
    { of: 'F', bits: 8 },
    { of: 'F', bits: 8, invert: true },
    1,
    { extent: 108_000 },
  ];
}
