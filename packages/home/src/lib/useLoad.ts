import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; data: T };

/** What `load()` answers, loaded again (from a loading state) whenever one of `deps` changes; the latest wins. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  const current = useCallback(load, deps);
  useEffect(() => {
    let alive = true;
    setLoaded({ state: 'loading' });
    current().then(
      (data) => alive && setLoaded({ state: 'ready', data }),
      (error: unknown) => alive && setLoaded({ state: 'failed', error }),
    );
    return () => {
      alive = false;
    };
  }, [current]);
  return loaded;
}
