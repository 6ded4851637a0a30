/**
 * Pronto hex from an IR protocol's numbers, with the protocol's published timings (`protocols.ts`), and back.
 * A Pronto "learned" code: `0000`, the carrier's frequency word, the number of burst pairs sent once and of those
 * repeated while the button is held, then each burst's on and off time in carrier cycles.
 */
import { type Item, type Numbers, PROTOCOLS, type ProtocolDefinition, type ProtocolName, type Variable } from './protocols';

export interface IrCommand {
  protocol: ProtocolName;
  device: number;
  /** The subdevice where the protocol has one (its default when `null`). */
  subdevice: number | null;
  function: number;
}

export const isProtocolName = (name: string): name is ProtocolName => Object.hasOwn(PROTOCOLS, name);

/** Pronto's clock: the frequency word counts carrier periods in units of 0.241246 µs. */
const PRONTO_CLOCK_US = 0.241246;
const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const bitsOf = (value: number, count: number, msbFirst: boolean) => {
  const bits = Array.from({ length: count }, (_, i) => Math.floor(value / 2 ** i) % 2);
  return msbFirst ? bits.reverse() : bits;
};

function fieldValue(item: Extract<Item, { bits: number }>, numbers: Numbers) {
  if ('value' in item) return item.value(numbers) % 2 ** item.bits;
  const value = Math.floor(numbers[item.of] / 2 ** (item.from ?? 0)) % 2 ** item.bits;
  return item.invert ? 2 ** item.bits - 1 - value : value;
}

/** One frame's signed durations in µs (positive a mark, negative a space). */
function renderFrame(definition: ProtocolDefinition, items: Item[], numbers: Numbers): number[] {
  const durations: number[] = [];
  for (const item of items) {
    if (typeof item === 'number') durations.push(item * definition.unit);
    else if ('us' in item) durations.push(item.us);
    else if ('extent' in item)
      durations.push(-Math.max(definition.unit, item.extent - durations.reduce((sum, t) => sum + Math.abs(t), 0)));
    else {
      const coding = ('coding' in item && item.coding) || definition.coding;
      for (const bit of bitsOf(fieldValue(item, numbers), item.bits, definition.msbFirst)) {
        durations.push(...(coding[bit] as number[]).map((units) => units * definition.unit));
      }
    }
  }
  return durations;
}

/** Neighbours of one sign merged (bi-phase codes make them), a leading space dropped: marks and spaces alternate. */
function alternating(durations: number[]): number[] {
  const merged: number[] = [];
  for (const t of durations) {
    const last = merged.at(-1);
    if (last !== undefined && Math.sign(last) === Math.sign(t)) merged[merged.length - 1] = last + t;
    else merged.push(t);
  }
  if ((merged[0] ?? 0) < 0) merged.shift();
  return merged;
}

function numbersOf(definition: ProtocolDefinition, command: IrCommand): Numbers {
  const subdevice = command.subdevice ?? definition.defaultSubdevice?.(command.device) ?? 0;
  const numbers: Numbers = { D: command.device, S: subdevice, F: command.function, T: 0 };
  for (const [variable, max] of Object.entries(definition.limits) as [Variable, number][]) {
    const value = numbers[variable];
    if (!Number.isInteger(value) || value < 0 || value > max) {
      throw new RangeError(`${command.protocol} ${variable} must be 0–${max}, got ${value}`);
    }
  }
  return numbers;
}

/** The once- and repeat-sequences of one command in signed µs. */
export function render(command: IrCommand): { carrier: number; once: number[]; repeat: number[] } {
  const definition: ProtocolDefinition | undefined = PROTOCOLS[command.protocol];
  if (!definition) throw new RangeError(`Unknown protocol ${command.protocol}`);
  const numbers = numbersOf(definition, command);
  const sequence = (frames: Item[][]) => alternating(frames.flatMap((frame) => renderFrame(definition, frame, numbers)));
  return { carrier: definition.carrier, once: sequence(definition.once), repeat: sequence(definition.repeat) };
}

/** The Pronto hex of one command. */
export function prontoHex(command: IrCommand): string {
  const { carrier, once, repeat } = render(command);
  const word = Math.round(1_000_000 / (carrier * PRONTO_CLOCK_US));
  const period = word * PRONTO_CLOCK_US;
  const cycles = (sequence: number[]) => sequence.map((t) => Math.max(1, Math.round(Math.abs(t) / period)));
  return [0, word, once.length / 2, repeat.length / 2, ...cycles(once), ...cycles(repeat)].map(hex).join(' ');
}

/** A learned Pronto code's carrier (Hz) and sequences in signed µs; `null` when it is not one. */
export function parseProntoHex(pronto: string): { carrier: number; once: number[]; repeat: number[] } | null {
  const words = pronto.trim().split(/\s+/);
  if (!words.every((w) => /^[0-9a-fA-F]{4}$/.test(w))) return null;
  const [format, word, onceCount, repeatCount, ...data] = words.map((w) => Number.parseInt(w, 16));
  if (format !== 0 || !word || onceCount === undefined || repeatCount === undefined) return null;
  if (data.length !== 2 * (onceCount + repeatCount)) return null;
  const period = word * PRONTO_CLOCK_US;
  const signed = data.map((n, i) => (i % 2 === 0 ? 1 : -1) * n * period);
  return { carrier: Math.round(1_000_000 / period), once: signed.slice(0, 2 * onceCount), repeat: signed.slice(2 * onceCount) };
}

/** How far a received duration may be from the nominal one (carrier-cycle rounding and learning jitter). */
const TOLERANCE = 0.2;

/**
 * Reads a protocol's numbers back from signed µs durations, by the same table `render` uses: each duration and bit
 * of the first frame is matched against the definition; `null` when the signal is not this protocol.
 */
export function decode(protocol: ProtocolName, durations: number[]): Pick<IrCommand, 'device' | 'subdevice' | 'function'> | null {
  const definition: ProtocolDefinition = PROTOCOLS[protocol];
  const frame = definition.once[0] as Item[];
  const stream = [...durations];
  const firstExpected = renderFrame(definition, frame, { D: 0, S: 0, F: 0, T: 0 })[0] ?? 1;
  // A frame starting with a space (RC5's first half-bit) lost it in the Pronto code: put it back.
  if (firstExpected < 0 && (stream[0] ?? 0) > 0) stream.unshift(firstExpected);
  let state = { index: 0, left: stream[0] ?? 0 };
  /** Consumes `expected` µs of the stream's current burst: `exact` when the burst ends there too. */
  const take = (at: typeof state, expected: number): { state: typeof state; exact: boolean } | null => {
    if (at.left === 0 || Math.sign(at.left) !== Math.sign(expected)) return null;
    const left = Math.abs(at.left);
    const want = Math.abs(expected);
    if (Math.abs(left - want) <= TOLERANCE * want)
      return { state: { index: at.index + 1, left: stream[at.index + 1] ?? 0 }, exact: true };
    if (left > want) return { state: { index: at.index, left: at.left - expected }, exact: false };
    return null;
  };
  const takeAll = (at: typeof state, expected: number[]) => {
    let current = at;
    let exact = true;
    for (const t of expected) {
      const next = take(current, t);
      if (!next) return null;
      current = next.state;
      exact = next.exact;
    }
    return { state: current, exact };
  };
  const values: Numbers = { D: 0, S: 0, F: 0, T: 0 };
  const known: Numbers = { D: 0, S: 0, F: 0, T: 0 };
  const checks: { value: (n: Numbers) => number; bits: number; read: number }[] = [];
  for (const item of frame) {
    if (typeof item === 'number' || 'us' in item) {
      const next = take(state, typeof item === 'number' ? item * definition.unit : item.us);
      if (!next) return null;
      state = next.state;
    } else if ('extent' in item) {
      if (state.left < 0) state = { index: state.index + 1, left: stream[state.index + 1] ?? 0 };
    } else {
      const coding = ('coding' in item && item.coding) || definition.coding;
      const bits: number[] = [];
      for (let i = 0; i < item.bits; i++) {
        const tries = [0, 1]
          .map((bit) => ({
            bit,
            read: takeAll(
              state,
              (coding[bit] as number[]).map((u) => u * definition.unit),
            ),
          }))
          .filter((t) => t.read !== null);
        const chosen = tries.find((t) => t.read?.exact) ?? tries[0];
        if (!chosen?.read) return null;
        bits.push(chosen.bit);
        state = chosen.read.state;
      }
      const ordered = definition.msbFirst ? bits.reverse() : bits;
      const read = ordered.reduce((sum, bit, i) => sum + bit * 2 ** i, 0);
      if ('value' in item) checks.push({ value: item.value, bits: item.bits, read });
      else {
        const value = item.invert ? 2 ** item.bits - 1 - read : read;
        const shift = 2 ** (item.from ?? 0);
        for (let i = 0; i < item.bits; i++) {
          const bit = Math.floor(value / 2 ** i) % 2;
          const place = shift * 2 ** i;
          if (Math.floor(known[item.of] / place) % 2 === 1) {
            if (Math.floor(values[item.of] / place) % 2 !== bit) return null;
          } else {
            known[item.of] += place;
            values[item.of] += bit * place;
          }
        }
      }
    }
  }
  if (checks.some((check) => check.value(values) % 2 ** check.bits !== check.read)) return null;
  return { device: values.D, subdevice: 'S' in definition.limits ? values.S : null, function: values.F };
}
