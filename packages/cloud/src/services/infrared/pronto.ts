/**
 * Pronto hex from an IR protocol's device and function numbers, with each protocol's published timings. Written
 * here rather than taken from a library: npm has no maintained encoder for these protocols, and each is a few
 * lines of timing. A Pronto "learned" code: `0000`, the carrier's frequency word, the number of burst pairs sent
 * once and of those repeated while the button is held, then each burst's on and off time in carrier cycles.
 */

export type Protocol = 'NEC1' | 'RC5' | 'SIRC12';

export interface IrCommand {
  protocol: Protocol;
  device: number;
  /** NEC1's second address byte (the device's complement when `null`); other protocols have none. */
  subdevice: number | null;
  function: number;
}

/** Carrier frequencies (Hz) of each protocol. */
const CARRIER: Record<Protocol, number> = { NEC1: 38_000, RC5: 36_000, SIRC12: 40_000 };
/** Pronto's frequency word: the carrier period in units of 0.241246 µs (Pronto's clock). */
const frequencyWord = (hz: number) => Math.round(1_000_000 / (hz * 0.241246));

const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

/** Bits of `value`, `count` of them, least significant first. */
const lsbFirst = (value: number, count: number) => Array.from({ length: count }, (_, i) => (value >> i) & 1);

function checkRange(name: string, value: number, max: number) {
  if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`${name} must be 0–${max}, got ${value}`);
}

/** NEC1: 9 ms on, 4.5 ms off, 32 bits (device, subdevice, function, its complement), a frame every 108 ms. */
function nec(command: IrCommand): { once: number[]; repeat: number[] } {
  const unit = 564;
  const subdevice = command.subdevice ?? ~command.device & 0xff;
  const bits = [
    ...lsbFirst(command.device, 8),
    ...lsbFirst(subdevice, 8),
    ...lsbFirst(command.function, 8),
    ...lsbFirst(~command.function & 0xff, 8),
  ];
  const once = [9000, 4500, ...bits.flatMap((bit) => [unit, bit ? 3 * unit : unit]), unit];
  once.push(108_000 - once.reduce((sum, t) => sum + t, 0));
  // Held down, NEC sends its "ditto": 9 ms on, 2.25 ms off, a burst, every 108 ms.
  const repeat = [9000, 2250, unit, 108_000 - 9000 - 2250 - unit];
  return { once, repeat };
}

/** RC5: bi-phase, 889 µs half-bits; start bits 1 1, toggle 0, 5 device bits and 6 function bits, most significant first. */
function rc5(command: IrCommand): { once: number[]; repeat: number[] } {
  const half = 889;
  const msbFirst = (value: number, count: number) => lsbFirst(value, count).reverse();
  const bits = [1, 1, 0, ...msbFirst(command.device, 5), ...msbFirst(command.function, 6)];
  // A 1 is off then on, a 0 on then off; equal neighbours merge into one longer burst or gap.
  const levels = bits.flatMap((bit) => (bit ? [0, 1] : [1, 0]));
  const durations: number[] = [];
  let level = levels[0] as number;
  let length = 0;
  for (const next of levels) {
    if (next === level) length += half;
    else {
      durations.push(length);
      level = next;
      length = half;
    }
  }
  durations.push(length);
  // The frame starts with the first 1's off half, which is no signal: it is dropped; it ends on a burst.
  if (levels[0] === 0) durations.shift();
  const frame = durations.length % 2 === 1 ? [...durations, 0] : durations;
  frame[frame.length - 1] = (frame.at(-1) as number) + 113_778 - frame.reduce((sum, t) => sum + t, 0);
  return { once: frame, repeat: frame };
}

/** Sony SIRC-12: 2.4 ms on, 0.6 ms off, 7 function bits then 5 device bits, a frame every 45 ms, sent thrice. */
function sirc12(command: IrCommand): { once: number[]; repeat: number[] } {
  const bits = [...lsbFirst(command.function, 7), ...lsbFirst(command.device, 5)];
  const frame = [2400, 600, ...bits.flatMap((bit) => [bit ? 1200 : 600, 600])];
  frame[frame.length - 1] = (frame.at(-1) as number) + 45_000 - frame.reduce((sum, t) => sum + t, 0);
  return { once: [...frame, ...frame, ...frame], repeat: frame };
}

/** The Pronto hex of one command. */
export function prontoHex(command: IrCommand): string {
  const limits: Record<Protocol, { device: number; function: number }> = {
    NEC1: { device: 255, function: 255 },
    RC5: { device: 31, function: 63 },
    SIRC12: { device: 31, function: 127 },
  };
  const limit = limits[command.protocol];
  if (!limit) throw new RangeError(`Unknown protocol ${command.protocol}`);
  checkRange('device', command.device, limit.device);
  checkRange('function', command.function, limit.function);
  if (command.subdevice !== null) checkRange('subdevice', command.subdevice, 255);
  const { once, repeat } = { NEC1: nec, RC5: rc5, SIRC12: sirc12 }[command.protocol](command);
  const hz = CARRIER[command.protocol];
  const cycles = (µs: number) => Math.max(1, Math.round((µs * hz) / 1_000_000));
  // Each burst rounds to whole cycles; the closing gap takes up the rounding, so the frame keeps its length.
  const inCycles = (sequence: number[]) => {
    const counted = sequence.map(cycles);
    const rest = counted.slice(0, -1).reduce((sum, c) => sum + c, 0);
    counted[counted.length - 1] = Math.max(1, cycles(sequence.reduce((sum, t) => sum + t, 0)) - rest);
    return counted;
  };
  const words = [0, frequencyWord(hz), once.length / 2, repeat.length / 2, ...inCycles(once), ...inCycles(repeat)];
  return words.map(hex).join(' ');
}
