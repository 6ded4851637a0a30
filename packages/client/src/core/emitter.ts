// biome-ignore lint/suspicious/noExplicitAny: listeners of different events take different arguments
type Listener = (...args: any[]) => void;

/** A small event emitter: the core runs where `node:events` does not. */
export class Emitter {
  #listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener): this {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return this;
  }

  once(event: string, listener: Listener): this {
    const wrapper: Listener = (...args) => {
      this.off(event, wrapper);
      listener(...args);
    };
    return this.on(event, wrapper);
  }

  off(event: string, listener?: Listener): this {
    if (listener) this.#listeners.get(event)?.delete(listener);
    else this.#listeners.delete(event);
    return this;
  }

  emit(event: string, ...args: unknown[]): boolean {
    const set = this.#listeners.get(event);
    if (!set?.size) return false;
    for (const listener of [...set]) listener(...args);
    return true;
  }

  listenerCount(event: string): number {
    return this.#listeners.get(event)?.size ?? 0;
  }
}

/** Resolves `promise` or rejects with `error` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
