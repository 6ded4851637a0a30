import { useEffect, useState } from 'react';

export type PromiseState<T> = { status: 'pending' } | { status: 'fulfilled'; value: T } | { status: 'rejected'; error: unknown };

/** Follows a promise made elsewhere (gathered context): pending, then its value or error. */
export function usePromise<T>(promise: Promise<T> | null | undefined): PromiseState<T> {
  const [state, setState] = useState<PromiseState<T>>({ status: 'pending' });
  useEffect(() => {
    if (!promise) return;
    let live = true;
    setState({ status: 'pending' });
    promise.then(
      (value) => live && setState({ status: 'fulfilled', value }),
      (error) => live && setState({ status: 'rejected', error }),
    );
    return () => {
      live = false;
    };
  }, [promise]);
  return state;
}
