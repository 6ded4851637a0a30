import type { CoreHubAPI, Item, Manager } from '@hearth/client/browser';
import { createContext, useContext, useEffect, useState } from 'react';

/** The signed-in hub, whether its realtime connection is up, and the way out. */
export interface HubState {
  hub: CoreHubAPI;
  signOut(): void;
}

export const HubContext = createContext<HubState | null>(null);

export function useHub(): HubState {
  const state = useContext(HubContext);
  if (!state) throw new Error('useHub outside a signed-in hub');
  return state;
}

export type Live<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; items: T[] };

/**
 * The items of one type a manager lists (`devices`/`device`, `zones`/`zone`, …), kept current by its realtime
 * events: the manager connects once (its cache is filled and followed), and this view reads the cache again on
 * every create, update and delete, and after a reconnect's refill. No polling. Items are the client's own objects,
 * updated in place, so a view reads them afresh on every render.
 */
export function useLiveItems<T>(manager: Manager, type: string): Live<T & Item> {
  const [live, setLive] = useState<Live<T & Item>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    const read = () => {
      if (current) setLive({ state: 'ready', items: manager.cached(type) as (T & Item)[] });
    };
    const events = [`${type}.create`, `${type}.update`, `${type}.delete`, 'connect'];
    for (const event of events) manager.on(event, read);
    manager.connect().then(read, (error: unknown) => current && setLive({ state: 'failed', error }));
    return () => {
      current = false;
      for (const event of events) manager.off(event, read);
    };
  }, [manager, type]);
  return live;
}

/** Whether the hub's realtime socket is up (`null` before it first connected). */
export function useOnline(hub: CoreHubAPI): boolean | null {
  const [online, setOnline] = useState<boolean | null>(hub.realtime.connected ? true : null);
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    hub.realtime.on('connect', up);
    hub.realtime.on('disconnect', down);
    if (hub.realtime.connected) up();
    return () => {
      hub.realtime.off('connect', up);
      hub.realtime.off('disconnect', down);
    };
  }, [hub]);
  return online;
}
