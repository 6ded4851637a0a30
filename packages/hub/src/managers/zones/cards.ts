import type { DomainBus } from '../../core/bus';
import { chosenId, type FlowCardDefinition, type FlowRegistry, registerCards, suggest } from '../flow/registry';
import type { ZoneStore } from './store';

const ZONES_URI = 'homey:manager:zones';

/** Zone cards: a zone becomes active or inactive (from its sensors), and whether a zone is active. */
export function serveZoneCards(registry: FlowRegistry, bus: DomainBus, zones: ZoneStore): () => void {
  const zoneArg = { name: 'zone', type: 'autocomplete', title: 'Zone' };
  const autocomplete = ({ query }: { query: string }) => suggest(zones.list(), query, (z) => ({ id: z.id, name: z.name }));
  const argProblem = (args: Record<string, unknown>) => {
    const id = chosenId(args.zone);
    return id && !zones.get(id) ? 'the zone it names is gone' : null;
  };
  const forZone = { args: [zoneArg], autocomplete, argProblem };
  const inZone = ({ args, state }: { args: Record<string, unknown>; state: Record<string, unknown> }) =>
    chosenId(args.zone) === state.zoneId;
  const tokens = [{ id: 'zone', title: 'Zone', type: 'string' as const }];
  const cards: FlowCardDefinition[] = [
    { type: 'trigger', uri: ZONES_URI, id: 'zone_active', title: 'A zone becomes active', tokens, ...forZone, run: inZone },
    { type: 'trigger', uri: ZONES_URI, id: 'zone_inactive', title: 'A zone becomes inactive', tokens, ...forZone, run: inZone },
    {
      type: 'condition',
      uri: ZONES_URI,
      id: 'zone_active',
      title: 'A zone is active',
      ...forZone,
      run: ({ args }) => zones.get(chosenId(args.zone) ?? '')?.active === true,
    },
  ];
  const stops = [
    registerCards(registry, cards),
    bus.on('zone.active', 'zone-cards', ({ zoneId, active }) =>
      registry.fire({
        uri: ZONES_URI,
        id: active ? 'zone_active' : 'zone_inactive',
        tokens: { zone: zones.get(zoneId)?.name ?? '' },
        state: { zoneId },
        source: null,
      }),
    ),
    bus.on('zone.removed', 'zone-cards', () => registry.changed()),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
