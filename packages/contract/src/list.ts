import type { AnyOperation } from './operation';

/** Flattens `{ group: { name: operation } }` into a list. */
export function listOperations(groups: Record<string, Record<string, AnyOperation>>): AnyOperation[] {
  return Object.values(groups).flatMap((group) => Object.values(group));
}
