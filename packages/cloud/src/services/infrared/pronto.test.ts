import { describe, expect, it } from 'vitest';
import { type IrCommand, prontoHex } from './pronto';

/** The words of a Pronto code as numbers, and its header. */
function parse(pronto: string) {
  const words = pronto.split(' ').map((word) => Number.parseInt(word, 16));
  const [, frequency, once, repeat] = words as [number, number, number, number];
  const hz = 1_000_000 / (frequency * 0.241246);
  return { frequency, once: words.slice(4, 4 + 2 * once), repeat: words.slice(4 + 2 * once), repeatPairs: repeat, hz };
}

/** Reads NEC1's 32 bits back from its bursts: a long gap (3 units) is a 1. */
function decodeNec(pronto: string) {
  const { once } = parse(pronto);
  const bits: number[] = [];
  for (let i = 2; i < 2 + 64; i += 2) bits.push((once[i + 1] as number) > 2 * (once[i] as number) ? 1 : 0);
  const byte = (n: number) => bits.slice(n * 8, n * 8 + 8).reduce((value, bit, i) => value | (bit << i), 0);
  return { device: byte(0), subdevice: byte(1), function: byte(2), inverse: byte(3) };
}

/** The whole frame in microseconds. */
const frameMicros = (cycles: number[], hz: number) => cycles.reduce((sum, c) => sum + c, 0) * (1_000_000 / hz);

describe('Pronto hex from protocol numbers', () => {
  it('writes NEC1 with its carrier, lead-in, 32 bits, ditto repeat and 108 ms frame', () => {
    for (const command of [
      { device: 4, subdevice: null, function: 8 },
      { device: 130, subdevice: 7, function: 255 },
      { device: 0, subdevice: null, function: 0 },
    ]) {
      const pronto = prontoHex({ protocol: 'NEC1', ...command });
      const parsed = parse(pronto);
      expect(parsed.frequency).toBe(0x6d);
      expect(parsed.once.slice(0, 2)).toEqual([0x156, 0xab]);
      expect(parsed.once).toHaveLength(68);
      expect(parsed.repeat.slice(0, 3)).toEqual([0x156, 0x56, 0x15]);
      expect(decodeNec(pronto)).toEqual({
        device: command.device,
        subdevice: command.subdevice ?? ~command.device & 0xff,
        function: command.function,
        inverse: ~command.function & 0xff,
      });
      expect(frameMicros(parsed.once, parsed.hz)).toBeCloseTo(108_000, -3);
    }
  });

  it('writes RC5 in bi-phase at 36 kHz and Sony SIRC-12 at 40 kHz, their frames as long as the protocols say', () => {
    const rc5 = parse(prontoHex({ protocol: 'RC5', device: 0, subdevice: null, function: 12 }));
    expect(rc5.frequency).toBe(0x73);
    // 889 µs half-bits: every burst and gap is one or two of them, until the frame's closing gap.
    for (const cycles of rc5.once.slice(0, -1)) expect([0x20, 0x40]).toContain(cycles);
    expect(frameMicros(rc5.once, rc5.hz)).toBeCloseTo(113_778, -3);
    const sirc = parse(prontoHex({ protocol: 'SIRC12', device: 1, subdevice: null, function: 21 }));
    expect(sirc.frequency).toBe(0x68);
    expect(sirc.once.slice(0, 2)).toEqual([0x60, 0x18]);
    // Sent three times; function 21 = 1010100 least significant bit first, then device 1.
    expect(sirc.once).toHaveLength(3 * 26);
    const marks = sirc.once.slice(2, 26).filter((_, i) => i % 2 === 0);
    expect(marks.map((cycles) => (cycles > 0x20 ? 1 : 0))).toEqual([1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0]);
    expect(frameMicros(sirc.repeat, sirc.hz)).toBeCloseTo(45_000, -3);
  });

  it('refuses numbers the protocol cannot carry', () => {
    const bad: IrCommand[] = [
      { protocol: 'NEC1', device: 256, subdevice: null, function: 0 },
      { protocol: 'RC5', device: 0, subdevice: null, function: 64 },
      { protocol: 'SIRC12', device: 32, subdevice: null, function: 1 },
      { protocol: 'NEC1', device: 1, subdevice: null, function: 1.5 },
    ];
    for (const command of bad) expect(() => prontoHex(command)).toThrow(RangeError);
  });
});
