import type { AnyOperation } from '@hearth/contract';

/** The operations of `group` named in `keys`: a service implements its group in parts, one file each. */
export function pick<G extends Record<string, AnyOperation>, const K extends keyof G>(group: G, keys: readonly K[]): Pick<G, K> {
  const out = {} as Pick<G, K>;
  for (const key of keys) out[key] = group[key];
  return out;
}
