import { randomBytes } from 'node:crypto';
import { invalidParameter } from '@hearth/contract';
import type { HubContext } from '../../platform/context';

type Json = Record<string, unknown>;

const FREQUENCIES = ['433', '868', 'ir'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** Carrier of each simulated radio in Hz (infrared: its modulation frequency). */
const CARRIER: Record<Frequency, number> = { '433': 433_920_000, '868': 868_300_000, ir: 38_000 };

/** Simulated 433 MHz, 868 MHz and infrared radios: a recorded signal can be replayed and is recognised when sent. */
export class RfRadio {
  readonly #recordings = new Map<Frequency, number[]>();
  #transmissions = 0;

  constructor(private readonly context: HubContext) {}

  state(): Json {
    return {
      frequencies: FREQUENCIES,
      mhz433: this.context.settings.get('rf.mhz433', { modulation: 'ASK', carrier: CARRIER['433'], baudrate: 2000, power: 10 }),
      recorded: Object.fromEntries([...this.#recordings].map(([f, d]) => [f, d.length])),
      transmissions: this.#transmissions,
    };
  }

  /** Records a remote's signal: the simulated remote is always pressed in time. */
  record(frequency: Frequency = '433'): { frequency: Frequency; data: number[] } {
    const bits = randomBytes(3);
    const short = frequency === 'ir' ? 560 : 350;
    const data: number[] = [short * 30];
    for (const byte of bits)
      for (let i = 7; i >= 0; i--) data.push(...((byte >> i) & 1 ? [short * 3, short] : [short, short * 3]));
    this.#recordings.set(frequency, data);
    return { frequency, data };
  }

  transmit(frequency: Frequency, data: readonly number[], repetitions = 1) {
    const durationMs = Math.round((data.reduce((sum, d) => sum + d, 0) * repetitions) / 1000);
    if (durationMs > 10_000) throw invalidParameter('data', 'A transmission may last at most 10 seconds');
    this.#transmissions += 1;
    const recorded = this.#recordings.get(frequency);
    const matchesRecording = recorded !== undefined && recorded.length === data.length && recorded.every((d, i) => d === data[i]);
    return { frequency, carrier: CARRIER[frequency], pulses: data.length, repetitions, durationMs, matchesRecording };
  }

  set433Config(config: Json): Json {
    const next = { ...(this.state().mhz433 as Json), ...config };
    this.context.settings.set('rf.mhz433', next);
    return next;
  }

  /** Decodes a Pronto hex code (learned format 0000) into pulse lengths in microseconds and sends it. */
  prontoHex(payload: string, repetitions = 1) {
    const words = payload.trim().split(/\s+/);
    if (!words.every((w) => /^[0-9a-fA-F]{4}$/.test(w))) throw invalidParameter('payload', 'Expected groups of four hex digits');
    const numbers = words.map((w) => Number.parseInt(w, 16));
    const [format, frequencyCode, once, repeat] = numbers;
    if (format !== 0 || frequencyCode === undefined || frequencyCode === 0)
      throw invalidParameter('payload', 'Only learned Pronto codes (0000) are supported');
    const pairs = (once ?? 0) + (repeat ?? 0);
    if (pairs === 0 || numbers.length !== 4 + pairs * 2) {
      throw invalidParameter('payload', `Expected ${4 + pairs * 2} words for ${pairs} burst pairs, got ${numbers.length}`);
    }
    const unitUs = frequencyCode * 0.241246;
    const data = numbers.slice(4).map((n) => Math.max(1, Math.round(n * unitUs)));
    return { ...this.transmit('ir', data, repetitions), carrier: Math.round(1_000_000 / unitUs) };
  }
}
