import type { AppToHubEventMap, AppToHubMethods, InitParams } from '../protocol/messages';

/**
 * What the public classes need from the process they run in: calls to the hub and the facts the hub started
 * the app with. The runner provides it over IPC; nothing here is part of the public SDK.
 */
export interface AppBridge {
  call<K extends keyof AppToHubMethods & string>(
    method: K,
    params: AppToHubMethods[K]['params'],
  ): Promise<AppToHubMethods[K]['result']>;
  /** Sends the hub an event (no answer); false when the channel is gone. */
  emit<K extends keyof AppToHubEventMap & string>(event: K, data: AppToHubEventMap[K]): boolean;
  readonly init: InitParams;
}

const bridges = new WeakMap<object, AppBridge>();

/** Ties a `Homey` instance to its bridge (the runner does this once, before any app code runs). */
export function bindBridge(homey: object, bridge: AppBridge): void {
  bridges.set(homey, bridge);
}

export function bridgeOf(homey: object): AppBridge {
  const bridge = bridges.get(homey);
  if (!bridge) throw new Error('This Homey instance is not connected to a hub');
  return bridge;
}

let pending: unknown;

/**
 * Constructs an app's class (App, Driver, Device subclasses) with what its base constructor needs, without
 * making that an argument apps see: the base constructor takes it with {@link takeBinding}.
 */
export function construct<T>(Class: new () => T, binding: unknown): T {
  pending = binding;
  try {
    return new Class();
  } finally {
    pending = undefined;
  }
}

export function takeBinding<T>(what: string): T {
  if (pending === undefined) throw new Error(`A ${what} is created by the hub when the app starts; do not construct it yourself`);
  const binding = pending as T;
  pending = undefined;
  return binding;
}

/** The error a call to something Hearth does not offer apps rejects (or throws) with. */
export function unsupported(what: string, why: string): Error {
  const error = new Error(`${what} is not available to apps on a Hearth hub: ${why}`);
  (error as Error & { code: string }).code = 'not_implemented';
  return error;
}
