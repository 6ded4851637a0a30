import { describe, expect, it } from 'vitest';
import { decode, type IrCommand, parseProntoHex, prontoHex, render } from './pronto';
import { PROTOCOLS, type ProtocolName } from './protocols';

const names = Object.keys(PROTOCOLS) as ProtocolName[];

/** Commands spread over each parameter's range: zero, the largest value, and mixed bit patterns. */
function commandsOf(protocol: ProtocolName): IrCommand[] {
  const limits: Partial<Record<'D' | 'S' | 'F', number>> = PROTOCOLS[protocol].limits;
  const pick = (max: number | undefined, fraction: number) => (max === undefined ? 0 : Math.floor(max * fraction));
  const withSubdevice = (value: number) => ('S' in limits ? value : null);
  return [0, 1, 0.37, 0.61, 0.5].map((fraction) => ({
    protocol,
    device: pick(limits.D, fraction),
    subdevice: withSubdevice(pick(limits.S, 1 - fraction)),
    function: pick(limits.F, fraction === 0.5 ? 1 : fraction),
  }));
}

describe('Pronto hex from the protocol table, read back by the same table', () => {
  it.each(names)('%s: every generated code decodes to its own numbers', (protocol) => {
    for (const command of commandsOf(protocol)) {
      const pronto = prontoHex(command);
      const parsed = parseProntoHex(pronto);
      expect(parsed, pronto).not.toBeNull();
      const decoded = decode(protocol, parsed?.once ?? []);
      expect(decoded, `${protocol} ${JSON.stringify(command)} → ${pronto}`).toEqual({
        device: command.device,
        subdevice:
          command.subdevice ??
          (PROTOCOLS[protocol] as { defaultSubdevice?: (d: number) => number }).defaultSubdevice?.(command.device) ??
          null,
        function: command.function,
      });
      // The carrier written into the code is the protocol's, to Pronto's clock resolution.
      expect(Math.abs((parsed?.carrier ?? 0) - PROTOCOLS[protocol].carrier)).toBeLessThan(PROTOCOLS[protocol].carrier * 0.01);
    }
  });

  it('writes NEC1 D=4 S=251 F=8 as its IRP says: 38.4 kHz, 16/8-unit lead-in, 34 pairs, a 2-pair ditto, 108 ms frames', () => {
    const pronto = prontoHex({ protocol: 'NEC1', device: 4, subdevice: null, function: 8 });
    // 006C: 1e6 / (38400 × 0.241246) = 107.9; 015A = 9024 µs and 00AD = 4512 µs in 26.05 µs periods.
    expect(pronto.startsWith('0000 006C 0022 0002 015A 00AD')).toBe(true);
    const { once, repeat } = render({ protocol: 'NEC1', device: 4, subdevice: null, function: 8 });
    expect(once.reduce((sum, t) => sum + Math.abs(t), 0)).toBe(108_000);
    expect(repeat).toEqual([9024, -2256, 564, -(108_000 - 9024 - 2256 - 564)]);
  });

  it('reads a Pronto code rendered elsewhere: LG TV ASPECT (NEC1 4/251/121) as home-assistant-libs/infrared-protocols renders it at 38 kHz', () => {
    const lgAspect =
      '0000 006D 0022 0000 0156 00AB 0015 0015 0015 0015 0015 0040 0015 0015 0015 0015 0015 0015 0015 0015 0015 0015 0015 0040 0015 0040 0015 0015 0015 0040 0015 0040 0015 0040 0015 0040 0015 0040 0015 0040 0015 0015 0015 0015 0015 0040 0015 0040 0015 0040 0015 0040 0015 0015 0015 0015 0015 0040 0015 0040 0015 0015 0015 0015 0015 0015 0015 0015 0015 0040 0015 0EDB';
    expect(decode('NEC1', parseProntoHex(lgAspect)?.once ?? [])).toEqual({ device: 4, subdevice: 251, function: 121 });
  });

  it('does not read one protocol as another, nor a damaged code', () => {
    const nec = parseProntoHex(prontoHex({ protocol: 'NEC1', device: 4, subdevice: null, function: 8 }))?.once ?? [];
    expect(decode('Sony12', nec)).toBeNull();
    expect(decode('RC5', nec)).toBeNull();
    // The function's complement no longer matches once one of its bits is flipped (a 1-unit space made 3 units).
    const damaged = [...nec];
    const lastComplementBit = 2 + 2 * 31 + 1;
    damaged[lastComplementBit] = (damaged[lastComplementBit] as number) < -1000 ? -564 : -1692;
    expect(decode('NEC1', damaged)).toBeNull();
    expect(parseProntoHex('0000 006C 0001')).toBeNull();
    expect(parseProntoHex('not pronto')).toBeNull();
  });

  it('refuses numbers outside the protocol’s range', () => {
    expect(() => prontoHex({ protocol: 'RC5', device: 32, subdevice: null, function: 1 })).toThrow(RangeError);
    expect(() => prontoHex({ protocol: 'Sony12', device: 1, subdevice: null, function: 128 })).toThrow(RangeError);
  });
});
