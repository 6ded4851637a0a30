import { useSyncExternalStore } from 'react';
import { MOBILE_MEDIA_QUERY } from '../config/constants';

const query = () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(MOBILE_MEDIA_QUERY) : null;

/** True on hover-none devices or widths up to 991 px, where option lists become carousels. */
export function useMobileLayout(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = query();
      list?.addEventListener('change', notify);
      return () => list?.removeEventListener('change', notify);
    },
    () => query()?.matches ?? false,
    () => false,
  );
}
