import type { CoreHubAPI } from '@hearth/client/browser';
import { useCallback, useMemo } from 'react';
import type { Owner } from './CardPicker';
import type { CardDef, CardType, GlobalToken } from './draft';

/** What both flow editors offer: the hub's cards of each kind by full id, its global tokens, its apps' names. */
export interface Catalog {
  cards: Record<CardType, Map<string, CardDef>>;
  globals: Map<string, GlobalToken>;
  apps: Map<string, string>;
}

/**
 * A card title as people read it: the ecosystem's titles say how they read inverted with
 * `!{{not inverted|inverted}}` ("Is turned !{{on|off}}"); the editor shows the plain form and says "not" itself.
 */
export const readableTitle = (title: string): string => title.replace(/!\{\{([^|}]*)\|[^}]*\}\}/g, '$1').replace(/\s+$/, '');

const byId = (list: Record<string, unknown>) =>
  new Map(
    Object.values(list).map((card) => {
      const def = card as CardDef;
      return [def.id, typeof def.title === 'string' ? { ...def, title: readableTitle(def.title) } : def];
    }),
  );

export async function loadCatalog(hub: CoreHubAPI): Promise<Catalog> {
  const [triggers, conditions, actions, tokens, apps] = await Promise.all([
    hub.flow.getFlowCardTriggers(),
    hub.flow.getFlowCardConditions(),
    hub.flow.getFlowCardActions(),
    // Tokens and app names only add to the editor: a session that may not read them still edits.
    hub.flowtoken.getFlowTokens().catch(() => ({})),
    hub.apps.getApps().catch(() => ({})),
  ]);
  return {
    cards: { trigger: byId(triggers), condition: byId(conditions), action: byId(actions) },
    globals: new Map(Object.values(tokens as Record<string, GlobalToken>).map((token) => [token.id, token])),
    apps: new Map(Object.values(apps as Record<string, { id: string; name: string }>).map((app) => [app.id, app.name])),
  };
}

/** Who offers a card or token, as a person reads it: the device's or app's name, or the hub's part. */
export function useOwnerOf(catalog: Catalog, devices: readonly { id: string; name: string }[]) {
  const deviceNames = useMemo(() => new Map(devices.map((device) => [device.id, device.name])), [devices]);
  return useCallback(
    (card: { ownerUri: string; uriObj?: { name: string } }): Owner => {
      const uri = card.ownerUri;
      if (uri.startsWith('homey:device:')) {
        const deviceId = uri.slice('homey:device:'.length);
        return { kind: 'device', name: deviceNames.get(deviceId) ?? card.uriObj?.name ?? deviceId };
      }
      if (uri.startsWith('homey:app:')) {
        const appId = uri.slice('homey:app:'.length);
        return { kind: 'app', name: catalog.apps.get(appId) ?? card.uriObj?.name ?? appId };
      }
      return { kind: 'hub', name: card.uriObj?.name ?? uri.replace('homey:manager:', '') };
    },
    [deviceNames, catalog.apps],
  );
}
