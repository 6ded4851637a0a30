import type { hubOperations, OperationResult } from '@hearth/contract';

export type Zone = OperationResult<typeof hubOperations.zones.getZone>;

/** The fields a tree needs, so a page may pass zones it holds in a narrower shape. */
type TreeZone = Pick<Zone, 'id' | 'name' | 'parent' | 'order'>;

/**
 * Zones in tree order (each parent before its children, siblings by their order, then name), each with its depth. A
 * zone whose parent is unknown is shown at the top rather than lost.
 */
export function zonesInTreeOrder<Z extends TreeZone>(zones: readonly Z[]): { zone: Z; depth: number }[] {
  const ids = new Set(zones.map((zone) => zone.id));
  const children = new Map<string | null, Z[]>();
  for (const zone of zones) {
    const parent = zone.parent && ids.has(zone.parent) ? zone.parent : null;
    children.set(parent, [...(children.get(parent) ?? []), zone]);
  }
  for (const list of children.values()) list.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const out: { zone: Z; depth: number }[] = [];
  const walk = (zone: Z, depth: number) => {
    out.push({ zone, depth });
    for (const child of children.get(zone.id) ?? []) walk(child, depth + 1);
  };
  for (const top of children.get(null) ?? []) walk(top, 0);
  return out;
}

/** The zone `id` and every zone below it: where it cannot be moved to. */
export function selfAndDescendants(zones: readonly TreeZone[], id: string): Set<string> {
  const found = new Set([id]);
  // Walking in tree order meets each parent before its children, so one pass finds the whole subtree.
  for (const { zone } of zonesInTreeOrder(zones)) if (zone.parent && found.has(zone.parent)) found.add(zone.id);
  return found;
}

/** A zone's name indented by its depth, for a select's option (options take no padding, spaces they keep). */
export const indentedName = (name: string, depth: number): string => `${'\u00a0\u00a0\u00a0'.repeat(depth)}${name}`;
