import { indentedName, type Zone, zonesInTreeOrder } from '../lib/zones';

/** A select's options for the zones, as an indented tree, leaving out the zones in `except`. */
export function ZoneOptions({ zones, except }: { zones: readonly Zone[]; except?: ReadonlySet<string> }) {
  return (
    <>
      {zonesInTreeOrder(zones)
        .filter(({ zone }) => !except?.has(zone.id))
        .map(({ zone, depth }) => (
          <option key={zone.id} value={zone.id}>
            {indentedName(zone.name, depth)}
          </option>
        ))}
    </>
  );
}
