import { HearthError } from '@hearth/contract';
import type { CapabilityValue } from '../../core/bus';
import type { HubContext } from '../../platform/context';

/** How long a device has to report a written value in its state message. */
export const CONFIRM_TIMEOUT_MS = 10_000;

interface Pending {
  readonly waiting: Map<string, CapabilityValue>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly cancelTimer: () => void;
}

/** Levels scaled to the device's range and back may differ by the 0.01 step they are rounded to. */
const same = (a: CapabilityValue, b: CapabilityValue) =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 0.011 : a === b;

/**
 * Writes wait for the device to confirm them: a write is done when state messages have carried every value it
 * set, and fails with `timeout` (the stored value unchanged) when they have not within the time, on the hub's clock.
 */
export class WriteConfirmations {
  #pending = new Map<string, Set<Pending>>();

  constructor(
    private readonly context: HubContext,
    private readonly timeoutMs = CONFIRM_TIMEOUT_MS,
  ) {}

  /** Starts waiting (before the command is published, as the answer may come at once); answers the wait. */
  wait(deviceId: string, deviceName: string, expected: Readonly<Record<string, CapabilityValue>>): Promise<void> {
    if (Object.keys(expected).length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const set = this.#pending.get(deviceId) ?? new Set<Pending>();
      this.#pending.set(deviceId, set);
      const pending: Pending = {
        waiting: new Map(Object.entries(expected)),
        resolve,
        reject,
        cancelTimer: this.context.clock.setTimeout(() => {
          set.delete(pending);
          const names = [...pending.waiting.keys()].join(', ');
          reject(new HearthError('timeout', `${deviceName} did not confirm ${names} within ${this.timeoutMs / 1000} s`));
        }, this.timeoutMs),
      };
      set.add(pending);
    });
  }

  /** A state message carried these values. */
  seen(deviceId: string, values: Readonly<Record<string, CapabilityValue>>): void {
    const set = this.#pending.get(deviceId);
    if (!set) return;
    for (const pending of set) {
      for (const [capabilityId, value] of Object.entries(values)) {
        const expected = pending.waiting.get(capabilityId);
        if (expected !== undefined && same(expected, value)) pending.waiting.delete(capabilityId);
      }
      if (pending.waiting.size > 0) continue;
      pending.cancelTimer();
      set.delete(pending);
      pending.resolve();
    }
    if (set.size === 0) this.#pending.delete(deviceId);
  }

  /** Fails every write still waiting (the bridge stopped, or the command could not be published). */
  failAll(reason: string, deviceId?: string): void {
    for (const [id, set] of this.#pending) {
      if (deviceId !== undefined && id !== deviceId) continue;
      for (const pending of set) {
        pending.cancelTimer();
        pending.reject(new HearthError('unavailable', reason));
      }
      this.#pending.delete(id);
    }
  }
}
