import { useEffect, useState } from 'react';
import { useAccount } from '../../app/account';
import { strings } from '../../app/strings';

/** How often the pages ask the cloud which hubs are connected: often enough to follow a hub going off or on. */
export const ONLINE_POLL_MS = 5_000;

/**
 * Which of the person's hubs hold a tunnel to the cloud, read now and every {@link ONLINE_POLL_MS} while the page
 * is visible (a hidden tab asks nothing, and asks at once when shown again). `undefined` until the first answer.
 */
export function useHubsOnline(): Map<string, boolean> | undefined {
  const { cloud } = useAccount();
  const [online, setOnline] = useState<Map<string, boolean>>();
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      clearTimeout(timer);
      if (document.visibilityState === 'hidden') return;
      try {
        const states = await cloud.services.connect.getHomeysOnline();
        if (current) setOnline(new Map(states.map((state) => [state.homeyId, state.online])));
      } catch (error) {
        console.warn('Online states', error);
      }
      if (current) timer = setTimeout(() => void read(), ONLINE_POLL_MS);
    };
    const onVisibility = () => void read();
    document.addEventListener('visibilitychange', onVisibility);
    void read();
    return () => {
      current = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [cloud]);
  return online;
}

/** A hub's connection to the cloud as a tag: online, offline, or not known yet. */
export function OnlineTag({ online }: { online: boolean | undefined }) {
  if (online === undefined) return <span className="tag">{strings.hubs.checking}</span>;
  return online ? (
    <span className="tag tag--ok">{strings.hubs.online}</span>
  ) : (
    <span className="tag tag--warn">{strings.hubs.offline}</span>
  );
}
