import type { TestHub } from './hub';

/**
 * The handlers of a manager's operations, called as the transport would after authorising an internal session.
 * The hub issues no internal sessions (HTTP refuses private calls with 403 `private_operation`), so tests reach a
 * private operation's behaviour through its handler.
 */
export function privateHandlers(t: TestHub, manager: { readonly name: string }) {
  const handlers = Object.fromEntries(
    (t.hub.managers.get(manager.name)?.implementations ?? []).map((i) => [i.operation.name, i.handler]),
  );
  return (name: string, input: object = {}): Promise<unknown> => {
    const handler = handlers[name];
    if (!handler) return Promise.reject(new Error(`${manager.name} has no operation ${name}`));
    return Promise.resolve().then(() => handler(input as never));
  };
}
