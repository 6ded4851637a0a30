/** Reads until `ok` accepts the value or `ms` pass, then answers the last value read (the test asserts on it). */
export async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A promise whose settling a test can look at without awaiting it (a write that must still be waiting). */
export function pending<T>(promise: Promise<T>): { readonly done: boolean; readonly answer: Promise<T> } {
  const state = { done: false, answer: promise.finally(() => (state.done = true)) };
  return state;
}
