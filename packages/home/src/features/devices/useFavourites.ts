import { useCallback, useEffect, useState } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';

/**
 * The member's own user property that holds their favourite devices (`{ devices: [ids] }`): the hub keeps
 * properties per member, private to them, so each person in the household has their own favourites.
 */
export const FAVOURITES_PROPERTY = 'favorites';

interface Favourites {
  devices?: unknown;
}

/**
 * The signed-in member's favourite devices, and a toggle that shows the change at once and takes it back with the
 * hub's reason when the hub refuses it. Without access to the member's own record (a token without that scope),
 * there are simply no favourites.
 */
export function useFavourites(): { ids: string[]; toggle(deviceId: string, name: string): Promise<void> } {
  const { hub } = useHub();
  const notify = useNotify();
  const [ids, setIds] = useState<string[]>([]);
  useEffect(() => {
    let alive = true;
    hub.users.getUserMe().then(
      (me) => {
        const stored = ((me as { properties?: Record<string, unknown> }).properties?.[FAVOURITES_PROPERTY] ?? {}) as Favourites;
        if (alive && Array.isArray(stored.devices)) setIds(stored.devices.filter((id): id is string => typeof id === 'string'));
      },
      () => {},
    );
    return () => {
      alive = false;
    };
  }, [hub]);
  const toggle = useCallback(
    async (deviceId: string, name: string) => {
      const before = ids;
      const after = before.includes(deviceId) ? before.filter((id) => id !== deviceId) : [...before, deviceId];
      setIds(after);
      try {
        await hub.users.updateUserMeProperties({ id: FAVOURITES_PROPERTY, value: { devices: after } });
      } catch (error) {
        setIds(before);
        notify('error', strings.home.favouriteRefused(name, messageOf(error)));
      }
    },
    [hub, ids, notify],
  );
  return { ids, toggle };
}
