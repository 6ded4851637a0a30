import type { CoreHubAPI } from '@hearth/client/browser';
import { useEffect, useRef, useState } from 'react';

/** A view of a driver's pairing: a system template the app draws itself, or the app's own HTML. */
export interface PairView {
  id: string;
  template?: string;
  navigation?: { prev?: string; next?: string };
}

export interface PairSession {
  id: string;
  driverId: string;
  views: PairView[];
  view?: string | null;
}

/** The session's views move when the driver says so (`showView`, `nextView`, `prevView`) or says it is `done`. */
export type DriverCommand = { kind: 'view'; view: string } | { kind: 'done' } | { kind: 'emit'; event: string; data: unknown };

/** A session lives while its client sends heartbeats; the hub drops it a minute after the last. */
const HEARTBEAT_MS = 20_000;

/**
 * Opens a pair session with `driverId` for as long as the component lives: heartbeats keep it, the driver's
 * commands arrive over the realtime socket (`homey:pairsession:<id>`, only its owner may listen), and leaving
 * closes it on the hub.
 */
export function usePairSession(
  hub: CoreHubAPI,
  driverId: string,
  zoneId: string | null,
  onCommand: (command: DriverCommand) => void,
): { state: 'opening' } | { state: 'failed'; error: unknown } | { state: 'open'; session: PairSession } {
  const [state, setState] = useState<ReturnType<typeof usePairSession>>({ state: 'opening' });
  // The latest handler, without opening a new session when it changes.
  const handler = useRef(onCommand);
  handler.current = onCommand;
  useEffect(() => {
    let alive = true;
    let session: PairSession | null = null;
    let unsubscribe: (() => void) | null = null;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    (async () => {
      session = (await hub.drivers.createPairSession({
        pairsession: { type: 'pair', driverId, zoneId },
      })) as unknown as PairSession;
      if (!alive) return void hub.drivers.deletePairSession({ id: session.id }).catch(() => {});
      const id = session.id;
      unsubscribe = await hub.realtime.subscribe(`homey:pairsession:${id}`, (event, data) => {
        const view = (data as { view?: string | null } | null)?.view;
        if (event === 'done') handler.current({ kind: 'done' });
        else if ((event === 'showView' || event === 'nextView' || event === 'prevView') && view)
          handler.current({ kind: 'view', view });
        else handler.current({ kind: 'emit', event, data });
      });
      heartbeat = setInterval(() => void hub.drivers.emitPairingHeartbeat({ id }).catch(() => {}), HEARTBEAT_MS);
      if (alive) setState({ state: 'open', session });
    })().catch((error: unknown) => alive && setState({ state: 'failed', error }));
    return () => {
      alive = false;
      clearInterval(heartbeat);
      unsubscribe?.();
      if (session) void hub.drivers.deletePairSession({ id: session.id }).catch(() => {});
    };
  }, [hub, driverId, zoneId]);
  return state;
}
