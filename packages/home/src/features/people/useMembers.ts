import { useEffect, useState } from 'react';
import { useHub } from '../../lib/hub';

export interface Member {
  id: string;
  name: string;
  role: string;
  present: boolean;
  asleep: boolean;
  enabled: boolean;
}

export type Members = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; items: Member[] };

/**
 * The household's members, live: listed once, then changed by the users manager's `user.*` events (presence and
 * sleep come as `user.update`), listed again after a reconnect. It follows the events itself instead of connecting
 * the users manager, because a connected manager answers every list from its cache, the access tokens too, which
 * no event keeps current (a revoked token would stay listed).
 */
export function useMembers(): Members {
  const { hub } = useHub();
  const [members, setMembers] = useState<Members>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    const list = () =>
      hub.users.getUsers().then(
        (users) => current && setMembers({ state: 'ready', items: Object.values(users as unknown as Record<string, Member>) }),
        (error: unknown) => current && setMembers({ state: 'failed', error }),
      );
    const changed = (event: string, data: unknown) => {
      const member = data as Member;
      if (!/^user\.(create|update|delete)$/.test(event) || typeof member?.id !== 'string') return;
      setMembers((before) => {
        if (before.state !== 'ready') return before;
        const others = before.items.filter((item) => item.id !== member.id);
        return { state: 'ready', items: event === 'user.delete' ? others : [...others, member] };
      });
    };
    let unsubscribe: (() => void) | undefined;
    hub.realtime.subscribe('homey:manager:users', changed).then(
      (stop) => {
        if (current) unsubscribe = stop;
        else stop();
      },
      () => undefined, // without events the list is still right once; the connection banner says realtime is down
    );
    const relist = () => void list();
    hub.realtime.on('reconnect', relist);
    void list();
    return () => {
      current = false;
      unsubscribe?.();
      hub.realtime.off('reconnect', relist);
    };
  }, [hub]);
  return members;
}
