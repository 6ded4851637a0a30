import { useCallback, useEffect, useState } from 'react';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';

export type OptionState<T> =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  | { state: 'ready'; value: T; set(value: T): Promise<string | null> };

const title = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * One option of a hub manager (`i18n`/`units`, `updates`/`autoupdate`, …), kept current by the manager's
 * `option.update` events. `set` shows the new value at once and puts the old one back when the hub refuses,
 * answering the hub's reason (`null` when it took it).
 */
export function useOption<T>(managerName: string, option: string): OptionState<T> {
  const { hub } = useHub();
  const manager = hub.manager(managerName);
  const [loaded, setLoaded] = useState<{ state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; value: T }>(
    {
      state: 'loading',
    },
  );
  useEffect(() => {
    if (!manager) return;
    let alive = true;
    const read = () =>
      manager[`getOption${title(option)}`]?.().then(
        (answer) => alive && setLoaded({ state: 'ready', value: (answer as { value: T }).value }),
        (error: unknown) => alive && setLoaded({ state: 'failed', error }),
      );
    const onUpdate = (event: { id?: string; value?: unknown }) => {
      if (event?.id === option) setLoaded({ state: 'ready', value: event.value as T });
    };
    manager.on('option.update', onUpdate);
    manager.on('connect', read);
    void manager.connect().catch(() => {});
    void read();
    return () => {
      alive = false;
      manager.off('option.update', onUpdate);
      manager.off('connect', read);
    };
  }, [manager, option]);

  const set = useCallback(
    async (value: T): Promise<string | null> => {
      const before = loaded.state === 'ready' ? loaded.value : value;
      setLoaded({ state: 'ready', value });
      try {
        await manager?.[`setOption${title(option)}`]?.({ value });
        return null;
      } catch (failure) {
        setLoaded({ state: 'ready', value: before });
        return messageOf(failure);
      }
    },
    [manager, option, loaded],
  );
  return loaded.state === 'ready' ? { ...loaded, set } : loaded;
}
